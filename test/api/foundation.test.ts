import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useTestApp } from '../support/test-app';
import { TEST_CONFIG, signToken } from '../support/tokens';
import { buildApp } from '../../server/app';
import { currentRoutesHcl } from '../../server/modules/piston/exports';
import { factories, uniqueTag, type Cooperation } from '../support/factories';
import { UNVERIFIED_EMAIL } from '../../server/auth/actor';

const dialects = await testDialects();

describe.each(dialects)('sign-in and the shell API on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** People who sign in and organizations they read; a test that bans, admits or changes someone makes its own. */
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const membersWith = (email: string) => t.db.selectFrom('members').select('member_id').where('member_email', '=', email.toLowerCase()).execute();

  describe('tokens are verified strictly', () => {
    it('refuses a call without a token with 401 and a message', async () => {
      const res = await t.call(null, { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: expect.any(String), severity: 'ERROR' });
    });
    // Forged, expired, misaddressed and misused tokens: test/api/tokens.test.ts.
  });

  describe('GET /api/auth/callback', () => {
    it('returns the member profile with roles', async () => {
      const res = await t.call(w.supervisor.email, { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name: w.supervisor.name,
        organization_name: w.operator.name,
        organization_role: 'OPERATOR',
        roles: [{ organization_id: w.operator.id, role: 'SUPERVISOR', scope: 'COOPERATION' }],
      });
      // The global abilities the screens read (issue 34: settling approvals leads to Pending Tasks).
      expect(res.json().abilities).toContain('approval.review');
    });

    it("lists approval.review among an approver's abilities, not a customer administrator's", async () => {
      expect((await t.call(w.approver.email, { method: 'GET', url: '/api/auth/callback' })).json().abilities).toContain('approval.review');
      expect((await t.call(w.partnerAdmin.email, { method: 'GET', url: '/api/auth/callback' })).json().abilities).toEqual([]);
    });

    it('sends an unknown person to the unknown-organization screen', async () => {
      const stranger = `stranger@unknown-${uniqueTag()}.example`;
      const res = await t.call(stranger, { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ redirect: 'AuthWelcome' });
      expect(await membersWith(stranger)).toHaveLength(0);
    });

    it('shuts out members of a banned organization on every call', async () => {
      for (const url of ['/api/auth/callback', '/api/organizations']) {
        const res = await t.call(w.bannedMember.email, { method: 'GET', url });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ redirect: 'AccessError' });
      }
    });

    it('shuts out a banned member at the very next call', async () => {
      const member = await make.member(w.customer);
      expect((await t.call(member.email, { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
      await t.db.updateTable('members').set({ date_member_banned: t.clock.now().toISOString() }).where('member_id', '=', member.id).execute();
      const res = await t.call(member.email, { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(403);
      await t.db.updateTable('members').set({ date_member_banned: null }).where('member_id', '=', member.id).execute();
      expect((await t.call(member.email, { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
    });

    it('needs a verified email to join through a trusted domain', async () => {
      const customer = await make.organization({ trusted: true });
      const newcomer = `newcomer@${customer.domain}`;
      const headers = await t.as(newcomer, { email_verified: false });
      const refused = await t.app.inject({ method: 'GET', url: '/api/auth/callback', headers });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: UNVERIFIED_EMAIL, redirect: 'AccessError' });
      expect(await membersWith(newcomer)).toHaveLength(0);
      // Verified, the same person joins.
      expect((await t.call(newcomer, { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
    });

    it('admits nobody new into a banned organization, and writes nothing', async () => {
      const customer = await make.organization({ trusted: true, banned: true });
      const newcomer = `newcomer@${customer.domain}`;
      const res = await t.call(newcomer, { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ redirect: 'AccessError' });
      expect(await membersWith(newcomer)).toHaveLength(0);
      expect(await t.db.selectFrom('audit_records').select('record_id').where('organization_id', '=', customer.id).execute()).toHaveLength(0);
    });

    it('admits a newcomer of a trusted domain as MEMBER and journals it', async () => {
      const customer = await make.organization({ trusted: true });
      const newcomer = `newcomer@${customer.domain}`;
      const signedUp = () => t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'MEMBER_SIGNED_UP').where('organization_id', '=', customer.id).execute();
      const res = await t.call(`Newcomer@${customer.domain.toUpperCase()}`, { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ organization_name: customer.name, roles: [{ role: 'MEMBER', scope: 'ORGANIZATION' }] });
      const records = await signedUp();
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ organization_id: customer.id, member_email: newcomer });
      // A second call finds the member; nobody is admitted twice.
      expect((await t.call(newcomer, { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
      expect(await signedUp()).toHaveLength(1);
      expect(await membersWith(newcomer)).toHaveLength(1);
    });
  });

  describe('GET /api/organizations', () => {
    const names = async (email: string, query = '') => {
      const res = await t.call(email, { method: 'GET', url: `/api/organizations${query}` });
      expect(res.statusCode).toBe(200);
      return (res.json() as Array<{ organization_name: string }>).map((o) => o.organization_name);
    };

    it('lists the organizations where the caller has an applying role', async () => {
      const all = (await t.db.selectFrom('organizations').select('organization_name').orderBy('organization_name').execute()).map((o) => o.organization_name);
      expect(all.length).toBeGreaterThanOrEqual(4);
      expect(await names(w.supervisor.email, '?limit=1000')).toEqual(all);
      expect(await names(w.partnerAdmin.email)).toEqual([w.customer.name, w.partner.name].sort());
      expect(await names(w.partnerIssuer.email)).toEqual([w.partner.name]);
      expect(await names(w.issuer.email)).toEqual([w.customer.name]);
    });

    it('filters by name, pages, and tells the total', async () => {
      expect(await names(w.supervisor.email, `?filter=${encodeURIComponent(w.partner.name.toUpperCase())}`)).toEqual([w.partner.name]);
      expect(await names(w.supervisor.email, '?filter=%25')).toEqual([]);
      const res = await t.call(w.supervisor.email, { method: 'GET', url: '/api/organizations?limit=1&offset=1' });
      expect(res.json()).toHaveLength(1);
      const total = Number((await t.db.selectFrom('organizations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      expect(total).toBeGreaterThanOrEqual(4);
      expect(res.headers['x-total-count']).toBe(String(total));
    });

    it('refuses bad paging with 400 naming the field', async () => {
      const res = await t.call(w.supervisor.email, { method: 'GET', url: '/api/organizations?limit=0' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'limit', severity: 'ERROR' });
    });

    it('attaches the roles that apply to each organization', async () => {
      const res = await t.call(w.partnerAdmin.email, { method: 'GET', url: `/api/organizations/${w.customer.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ organization_name: w.customer.name, parent_organization_name: w.partner.name, domains: [w.customer.domain], roles: [{ role: 'ADMINISTRATOR' }] });
    });

    it('treats an organization without an applying role as missing', async () => {
      for (const email of [w.partnerIssuer.email, w.issuer.email]) {
        const res = await t.call(email, { method: 'GET', url: `/api/organizations/${w.operator.id}` });
        expect(res.statusCode).toBe(404);
      }
      expect((await t.call(w.supervisor.email, { method: 'GET', url: `/api/organizations/${w.operator.id}` })).statusCode).toBe(200);
      expect((await t.call(w.issuer.email, { method: 'GET', url: '/api/organizations/no-such-id' })).statusCode).toBe(404);
    });
  });

  describe('operations', () => {
    it('answers health, readiness and metrics without sign-in', async () => {
      expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
      expect((await t.app.inject('/readyz')).statusCode).toBe(200);
      const metrics = await t.app.inject('/metrics');
      expect(metrics.body).toContain('http_request_duration_seconds');
      // The event-loop delay and the database pool, which the benchmark's targets speak of.
      expect(metrics.body).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
      const total = Number(/^db_pool_connections\{state="total"\} (\d+)/m.exec(metrics.body)?.[1]);
      expect(total).toBeGreaterThanOrEqual(1);
      expect(metrics.body).toMatch(/^db_pool_connections\{state="waiting"\} 0$/m);
      expect(metrics.body).toMatch(/^db_pool_connections\{state="in_use"\} \d+$/m);
    });

    /** A sample's value in /metrics (0 when absent). */
    const sample = async (series: string) => {
      const body = (await t.app.inject('/metrics')).body;
      const line = body.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };

    it('counts sign-ins and refusals by reason, with no id, email or token in a label', async () => {
      const banned = await make.member(w.customer, { banned: true });
      const stranger = `stranger@unknown-${uniqueTag()}.example`;
      const reasons = ['missing_token', 'expired', 'unknown_member', 'member_banned', 'organization_banned', 'email_not_verified'];
      const before = await Promise.all(reasons.map((r) => sample(`portal_auth_refusals_total{reason="${r}"}`)));
      const signInsBefore = await sample('portal_sign_ins_total');
      const expired = await signToken(t.db, { email: w.supervisor.email, email_verified: true }, { expiresIn: '-1m' });
      await t.app.inject({ url: '/api/organizations' });
      await t.app.inject({ url: '/api/organizations', headers: { authorization: `Bearer ${expired}` } });
      await t.call(stranger, { method: 'GET', url: '/api/auth/callback' });
      await t.call(banned.email, { method: 'GET', url: '/api/organizations' });
      await t.call(w.bannedMember.email, { method: 'GET', url: '/api/organizations' });
      await t.call(w.member.email, { method: 'GET', url: '/api/organizations', headers: await t.as(w.member.email, { email_verified: false }) });
      expect((await t.call(w.member.email, { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
      const after = await Promise.all(reasons.map((r) => sample(`portal_auth_refusals_total{reason="${r}"}`)));
      expect(after.map((n, i) => n - before[i])).toEqual(reasons.map(() => 1));
      expect(await sample('portal_sign_ins_total')).toBe(signInsBefore + 1);
      const body = (await t.app.inject('/metrics')).body;
      for (const secret of [stranger, banned.email, expired, w.customer.id]) expect(body).not.toContain(secret);
    });

    it('times export rebuilds by kind', async () => {
      await currentRoutesHcl(t.db, new Date());
      expect(await sample('portal_export_rebuild_duration_seconds_count{kind="routes",outcome="ok"}')).toBeGreaterThanOrEqual(1);
    });

    it('labels requests by route template; every web-app file is one "static" label, unknown paths "unmatched"', async () => {
      const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
      fs.mkdirSync(path.join(webRoot, 'assets'));
      fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
      for (const name of ['index-a1b2c3.js', 'index-d4e5f6.css', 'chunk-0a9b8c.js']) fs.writeFileSync(path.join(webRoot, 'assets', name), 'x');
      const app = await buildApp({ config: { ...TEST_CONFIG, webRoot }, db: t.db, logger: false });
      try {
        for (const url of ['/assets/index-a1b2c3.js', '/assets/index-d4e5f6.css', '/assets/chunk-0a9b8c.js', '/certificates', '/api/nothing-here', `/api/organizations/${w.customer.id}`]) await app.inject(url);
        const body = (await app.inject('/metrics')).body;
        const routes = new Set([...body.matchAll(/^http_request_duration_seconds_count\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]));
        expect([...routes].sort()).toEqual(['/api/organizations/:id', 'app', 'static', 'unmatched']);
        expect(body).toMatch(/^http_request_duration_seconds_count\{method="GET",route="static",status="200"\} 3$/m);
      } finally {
        await app.close();
        fs.rmSync(webRoot, { recursive: true, force: true });
      }
    });

    it('answers unknown API paths with a JSON 404', async () => {
      const res = await t.call(w.supervisor.email, { method: 'GET', url: '/api/nothing-here' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Not found.' });
    });

    it('publishes the OpenAPI document', async () => {
      const res = await t.app.inject('/api/docs/json');
      expect(res.statusCode).toBe(200);
      expect(res.json().paths).toHaveProperty('/api/organizations/{id}/certificates');
    });

    it('sends a strict CSP on every response', async () => {
      const res = await t.app.inject('/healthz');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
    });

    it('answers the API with a CSP that allows nothing and the other security headers, also when refusing', async () => {
      for (const res of [
        await t.call(w.supervisor.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/certificates` }),
        await t.app.inject('/api/organizations'),
        await t.call(w.member.email, { method: 'GET', url: '/api/piston/certs' }),
      ]) {
        expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', 'referrer-policy': 'no-referrer', 'strict-transport-security': 'max-age=31536000; includeSubDomains' });
      }
    });
  });
});
