/**
 * The deployment files hold what their tools check: docs/alerts.yml passes `promtool check rules` and its cases in
 * alerts.promtool.yml (when Debian's `prometheus` package is installed) and names only metrics /metrics has; the
 * Dockerfile passes dockerfile-utils' linter (VS Code's Docker language service); deploy/customer-portal.service passes
 * `systemd-analyze verify` (when installed); compose.yaml runs the image as the README says. What the image and the
 * unit run is tested by test/reliability/release.test.ts.
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

  it.runIf(installed('promtool'))('pass `promtool check rules`, and fire on the series the portal writes (`promtool test rules`)', () => {
    const check = spawnSync('promtool', ['check', 'rules', path.join(root, 'docs/alerts.yml')], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toMatch(/SUCCESS: \d+ rules found/);
    expect(check.status).toBe(0);
    // Cases beside this file: expiry and a first failed webhook once per organization across instances, readiness, delay.
    const cases = spawnSync('promtool', ['test', 'rules', 'alerts.promtool.yml'], { cwd: import.meta.dirname, encoding: 'utf8' });
    expect(cases.stdout + cases.stderr).toContain('SUCCESS');
    expect(cases.status).toBe(0);
  });
});

describe('compose.yaml', () => {
  type Service = { build?: string; image?: string; read_only?: boolean; tmpfs?: string[]; volumes?: string[]; stop_grace_period?: string; environment?: Record<string, string>; depends_on?: Record<string, unknown>; user?: string };
  const compose = parse(fs.readFileSync(path.join(root, 'compose.yaml'), 'utf8')) as { services: Record<string, Service>; volumes: Record<string, unknown> };

  it('runs the image of the Dockerfile read-only with /data on a volume, beside PostgreSQL and a mail catcher', () => {
    const { portal, db, mail } = compose.services;
    expect(portal.build).toBe('.');
    expect(portal).toMatchObject({ read_only: true, tmpfs: ['/tmp'], volumes: ['portal-data:/data'] });
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['portal-data', 'db-data']));
    // Longer than the portal's own grace (8 s), so docker stop never kills a shutdown under way.
    expect(Number(/^(\d+)s$/.exec(portal.stop_grace_period ?? '')?.[1])).toBeGreaterThan(8);
    expect(portal.environment).toMatchObject({ DATABASE_URL: expect.stringMatching(/^postgres:\/\/portal:.*@db:5432\/portal$/), SMTP_URL: 'smtp://mail:1025' });
    expect(portal.depends_on).toMatchObject({ db: { condition: 'service_healthy' } });
    expect(db.image).toMatch(/^postgres:\d+$/);
    expect(mail.image).toMatch(/^axllent\/mailpit:/);
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
