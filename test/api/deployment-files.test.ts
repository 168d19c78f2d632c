/**
 * The deployment files hold what their tools check: docs/alerts.yml passes `promtool check rules` (when Debian's
 * `prometheus` package is installed) and names only metrics /metrics has; the Dockerfile passes dockerfile-utils'
 * linter (VS Code's Docker language service); deploy/customer-portal.service passes `systemd-analyze verify` (when
 * installed). What the image and the unit run is tested by test/reliability/release.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { validate } from 'dockerfile-utils';
import { useTestApp } from '../support/test-app';

const root = path.resolve(import.meta.dirname, '../..');
const installed = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).error === undefined;

type Rules = { groups: Array<{ name: string; rules: Array<{ alert: string; expr: string; labels: { severity: string } }> }> };
const rules = parse(fs.readFileSync(path.join(root, 'docs/alerts.yml'), 'utf8')) as Rules;
/** PromQL's own words in the rules, and the series Prometheus makes itself (the scrape's `up`, the probe's result). */
const NOT_OURS = new Set(['max', 'without', 'sum', 'by', 'rate', 'offset', 'or', 'unless', 'instance', 'up', 'probe_success']);

describe('the alert rules', () => {
  const t = useTestApp('sqlite', { demo: false });

  it('name only metrics /metrics has, and cover expiry, failed webhooks, readiness and event-loop delay', async () => {
    const body = (await t.app.inject('/metrics')).body;
    const families = new Set([...body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) => (type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name])));
    const all = rules.groups.flatMap((g) => g.rules);
    const used = new Set(all.flatMap((r) => r.expr.replace(/"[^"]*"|\[[^\]]*\]|\{[^}]*\}/g, ' ').match(/(?<![\d.])[a-z_][a-z0-9_]*/gi) ?? []).filter((w) => !NOT_OURS.has(w)));
    for (const metric of used) expect(families, metric).toContain(metric);
    const expressions = all.map((r) => r.expr).join('\n');
    for (const needed of ['portal_certificates_expiring', 'portal_licenses_expired_unacknowledged', 'portal_webhook_deliveries{job="customer-portal", state="failed"}', 'probe_success', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(expressions).toContain(needed);
    }
    for (const rule of all) expect(['info', 'warning', 'critical'], rule.alert).toContain(rule.labels.severity);
  });

  it.runIf(installed('promtool'))('pass `promtool check rules`', () => {
    const check = spawnSync('promtool', ['check', 'rules', path.join(root, 'docs/alerts.yml')], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toMatch(/SUCCESS: \d+ rules found/);
    expect(check.status).toBe(0);
  });
});

describe('the Dockerfile and the systemd unit', () => {
  it('the Dockerfile has nothing a Dockerfile linter finds', () => {
    const problems = validate(fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
    expect(problems.map((p) => `line ${p.range.start.line + 1}: ${p.message}`)).toEqual([]);
  });

  it.runIf(installed('systemd-analyze'))('the unit passes `systemd-analyze verify` without a word', () => {
    const verify = spawnSync('systemd-analyze', ['verify', path.join(root, 'deploy/customer-portal.service')], { encoding: 'utf8' });
    expect(verify.stdout + verify.stderr).toBe('');
    expect(verify.status).toBe(0);
  });
});
