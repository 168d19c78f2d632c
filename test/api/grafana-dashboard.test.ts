/** docs/grafana-dashboard.json is valid JSON for Grafana 10+ and queries only metrics /metrics has. */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { useTestApp } from '../support/test-app';

const dashboard = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../docs/grafana-dashboard.json'), 'utf8')) as {
  schemaVersion: number; panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};
const PROMQL_WORDS = new Set(['sum', 'by', 'rate', 'histogram_quantile', 'clamp_min', 'le', 'route', 'kind', 'outcome', 'reason', 'instance', 'status', 'state']);

describe('the Grafana dashboard', () => {
  const t = useTestApp('sqlite', { demo: false });

  it('is a Grafana 10+ dashboard whose every query names a metric family of /metrics', async () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(38);
    const body = (await t.app.inject('/metrics')).body;
    const families = new Set([...body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) => (type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name])));
    const used = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((q) => q.expr.replace(/"[^"]*"|\[[^\]]*\]|\{[^}]*\}/g, ' ').match(/(?<![\d.])[a-z_][a-z0-9_]*/gi) ?? [])).filter((w) => !PROMQL_WORDS.has(w)));
    expect(used.size).toBeGreaterThanOrEqual(8);
    for (const metric of used) expect(families, metric).toContain(metric);
  });
});
