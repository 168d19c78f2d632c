/**
 * The alerting gauges of /metrics (issue 13 item 6) on both engines, at the injected clock: per
 * organization id, what expires within 7 and 30 days, expired unacknowledged, approvals waiting
 * and the oldest one's age; and /metrics closed to anyone without METRICS_TOKEN once it is set,
 * and in production to everyone without it (issue 30 item 9).
 */
import { describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories } from '../../../test/support/factories';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';

const dialects = await testDialects();

/** A sample's value in a Prometheus text exposition, or undefined when absent. */
function sample(body: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = body.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

/** Problems with the exposition as a Prometheus scraper reads it: a family typed twice, or a line it cannot parse. */
function formatProblems(body: string): string[] {
  const typed = body.split('\n').filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]);
  const twice = typed.filter((name, i) => typed.indexOf(name) !== i).map((name) => `typed twice: ${name}`);
  const sampleLine = /^[a-zA-Z_:][\w:]*(\{([a-zA-Z_]\w*="([^"\\\n]|\\["\\n])*",?)*\})? (-?[\d.e+-]+|NaN|[+-]Inf)$/;
  const unreadable = body.split('\n').filter((l) => l !== '' && !l.startsWith('#') && !sampleLine.test(l));
  return [...twice, ...unreadable];
}

describe.each(dialects)('alerting metrics on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);

  it('counts per organization id what expires within 7 and 30 days, what expired unacknowledged, and the approvals waiting', async () => {
    const org = await make.organization({ role: 'PARTNER' });
    const other = await make.organization({ role: 'PARTNER' });
    await make.certificate(org, 'approved', { from: -10, to: 5 });
    await make.certificate(org, 'approved', { from: -10, to: 20 });
    await make.certificate(org, 'approved', { from: -10, to: 200 });
    await make.certificate(org, 'revoked', { from: -10, to: 3 });
    await make.certificate(org, 'expired');
    await make.certificate(org, 'acknowledged');
    const waiting = await make.certificate(org, 'requested', { from: -1, to: 30 }); // created 3 days before now
    await make.license(org, 'approved', { from: -10, days: 16 });
    await make.license(other, 'requested');
    const body = (await t.app.inject('/metrics')).body;
    const id = { organization_id: org.id };
    expect(sample(body, 'portal_certificates_expiring', { ...id, within_days: '7' })).toBe(1);
    expect(sample(body, 'portal_certificates_expiring', { ...id, within_days: '30' })).toBe(2);
    expect(sample(body, 'portal_certificates_expired_unacknowledged', id)).toBe(1);
    expect(sample(body, 'portal_licenses_expiring', { ...id, within_days: '30' })).toBe(1);
    expect(sample(body, 'portal_pending_approvals', { ...id, kind: 'certificate' })).toBe(1);
    expect(sample(body, 'portal_pending_approval_oldest_age_seconds', { ...id, kind: 'certificate' })).toBe(3 * 86_400);
    expect(sample(body, 'portal_pending_approvals', { organization_id: other.id, kind: 'license' })).toBe(1);
    expect(formatProblems(body)).toEqual([]);
    // Names never appear: ids only.
    expect(body).not.toContain(org.name);
    // Time passing moves them: 6 days on, the 5-day certificate has expired.
    t.clock.advanceDays(6);
    const later = (await t.app.inject('/metrics')).body;
    expect(sample(later, 'portal_certificates_expired_unacknowledged', id)).toBe(2);
    expect(sample(later, 'portal_certificates_expiring', { ...id, within_days: '7' })).toBe(0);
    expect(sample(later, 'portal_certificates_expiring', { ...id, within_days: '30' })).toBe(1);
    // The waiting one has waited 6 days longer; once approved, nothing of the organization waits.
    expect(sample(later, 'portal_pending_approval_oldest_age_seconds', { ...id, kind: 'certificate' })).toBe(9 * 86_400);
    await t.db.updateTable('certificates').set({ date_approved: t.clock.now().toISOString() }).where('distinguished_name', '=', waiting.dn).execute();
    const approved = (await t.app.inject('/metrics')).body;
    expect(sample(approved, 'portal_pending_approvals', { ...id, kind: 'certificate' })).toBeUndefined();
    expect(sample(approved, 'portal_pending_approvals', { organization_id: other.id, kind: 'license' })).toBe(1);
  });

  it('answers /metrics only to the holder of METRICS_TOKEN once it is set', async () => {
    const token = 'scrape-token-0123456789';
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', PORT: '8080', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'silent', METRICS_TOKEN: token }),
      db: t.db, now: t.clock.now, logger: false,
    });
    try {
      expect((await app.inject('/metrics')).statusCode).toBe(401);
      expect((await app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode).toBe(401);
      const ok = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('portal_pending_approvals');
      // Liveness and readiness stay open for the load balancer.
      expect((await app.inject('/healthz')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('gives an unauthenticated scrape nothing in production: off without METRICS_TOKEN (said once at start), 401 without the token', async () => {
    const org = await make.organization({ role: 'PARTNER' });
    await make.certificate(org, 'requested');
    const production = { NODE_ENV: 'production', PORT: '8080', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'warn' };
    const nothing = (body: string) => {
      expect(body).not.toContain(org.id);
      expect(body).not.toMatch(/portal_|nodejs_|process_|http_request/);
    };
    for (const [env, status] of [[production, 404], [{ ...production, METRICS_TOKEN: 'scrape-token-0123456789' }, 401]] as const) {
      const lines: Array<{ level: number; msg: string }> = [];
      const app = await buildApp({ config: loadConfig(env), db: t.db, now: t.clock.now, logStream: { write: (line) => lines.push(JSON.parse(line)) } });
      try {
        await app.ready();
        for (const headers of [{}, { authorization: 'Bearer ' }, { authorization: 'Bearer wrong-token-0123456789' }, { 'x-forwarded-for': '127.0.0.1' }]) {
          const scrape = await app.inject({ url: '/metrics', headers });
          expect(scrape.statusCode, JSON.stringify(headers)).toBe(status);
          nothing(scrape.body);
        }
        const warned = lines.filter((l) => l.level === 40 && /METRICS_TOKEN/.test(l.msg));
        if (status === 404) {
          // One line at start says how to turn them on; a scrape adds none.
          expect(warned.map((l) => l.msg)).toEqual([expect.stringMatching(/^\/metrics is off: NODE_ENV=production without METRICS_TOKEN.*set METRICS_TOKEN/)]);
        } else {
          expect(warned).toEqual([]);
          const ok = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-token-0123456789' } });
          expect(ok.statusCode).toBe(200);
          expect(sample(ok.body, 'portal_pending_approvals', { organization_id: org.id, kind: 'certificate' })).toBe(1);
        }
        expect((await app.inject('/healthz')).statusCode).toBe(200);
      } finally {
        await app.close();
      }
    }
  });
});
