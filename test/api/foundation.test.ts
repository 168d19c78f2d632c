import { describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { UNVERIFIED_EMAIL } from '../../server/auth/actor';

const dialects = await testDialects();

describe.each(dialects)('sign-in and the shell API on %s', (dialect) => {
  const t = useTestApp(dialect);

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
      const res = await t.call('supervisor@operator.example', { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name: 'Sofia Supervisor',
        organization_name: 'Operator',
        organization_role: 'OPERATOR',
        roles: [{ organization_id: t.org.operator, role: 'SUPERVISOR', scope: 'COOPERATION' }],
      });
    });

    it('sends an unknown person to the unknown-organization screen', async () => {
      const res = await t.call('stranger@unknown.example', { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ redirect: 'AuthWelcome' });
    });

    it('shuts out members of a banned organization on every call', async () => {
      for (const url of ['/api/auth/callback', '/api/organizations']) {
        const res = await t.call('member@fabrikam.example', { method: 'GET', url });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ redirect: 'AccessError' });
      }
    });

    it('shuts out a banned member at the very next call', async () => {
      await t.db.updateTable('members').set({ date_member_banned: t.clock.now().toISOString() }).where('member_email', '=', 'member@contoso.example').execute();
      const res = await t.call('member@contoso.example', { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(403);
      await t.db.updateTable('members').set({ date_member_banned: null }).where('member_email', '=', 'member@contoso.example').execute();
      expect((await t.call('member@contoso.example', { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
    });

    it('needs a verified email to join through a trusted domain', async () => {
      const headers = await t.as('newcomer@contoso.example', { email_verified: false });
      const refused = await t.app.inject({ method: 'GET', url: '/api/auth/callback', headers });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: UNVERIFIED_EMAIL, redirect: 'AccessError' });
      expect(await t.db.selectFrom('members').select('member_id').where('member_email', '=', 'newcomer@contoso.example').execute()).toHaveLength(0);
    });

    it('admits nobody new into a banned organization, and writes nothing', async () => {
      await t.db.updateTable('organizations').set({ date_organization_banned: t.clock.now().toISOString() }).where('organization_id', '=', t.org.contoso).execute();
      const res = await t.call('newcomer@contoso.example', { method: 'GET', url: '/api/auth/callback' });
      await t.db.updateTable('organizations').set({ date_organization_banned: null }).where('organization_id', '=', t.org.contoso).execute();
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ redirect: 'AccessError' });
      expect(await t.db.selectFrom('members').select('member_id').where('member_email', '=', 'newcomer@contoso.example').execute()).toHaveLength(0);
    });

    it('admits a newcomer of a trusted domain as MEMBER and journals it', async () => {
      const res = await t.call('Newcomer@Contoso.example', { method: 'GET', url: '/api/auth/callback' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ organization_name: 'Contoso', roles: [{ role: 'MEMBER', scope: 'ORGANIZATION' }] });
      const records = await t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'MEMBER_SIGNED_UP').execute();
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ organization_id: t.org.contoso, member_email: 'newcomer@contoso.example' });
      // A second call finds the member; nobody is admitted twice.
      expect((await t.call('newcomer@contoso.example', { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
      expect(await t.db.selectFrom('audit_records').select('record_id').where('reason', '=', 'MEMBER_SIGNED_UP').execute()).toHaveLength(1);
    });
  });

  describe('GET /api/organizations', () => {
    const names = async (email: string, query = '') => {
      const res = await t.call(email, { method: 'GET', url: `/api/organizations${query}` });
      expect(res.statusCode).toBe(200);
      return (res.json() as Array<{ organization_name: string }>).map((o) => o.organization_name);
    };

    it('lists the organizations where the caller has an applying role', async () => {
      expect(await names('supervisor@operator.example')).toEqual(['Contoso', 'Fabrikam', 'Northwind Networks', 'Operator']);
      expect(await names('admin@northwind.example')).toEqual(['Contoso', 'Northwind Networks']);
      expect(await names('issuer@northwind.example')).toEqual(['Northwind Networks']);
      expect(await names('issuer@contoso.example')).toEqual(['Contoso']);
    });

    it('filters by name, pages, and tells the total', async () => {
      expect(await names('supervisor@operator.example', '?filter=NORTH')).toEqual(['Northwind Networks']);
      expect(await names('supervisor@operator.example', '?filter=%25')).toEqual([]);
      const res = await t.call('supervisor@operator.example', { method: 'GET', url: '/api/organizations?limit=1&offset=1' });
      expect(res.json()).toHaveLength(1);
      expect(res.headers['x-total-count']).toBe('4');
    });

    it('refuses bad paging with 400 naming the field', async () => {
      const res = await t.call('supervisor@operator.example', { method: 'GET', url: '/api/organizations?limit=0' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'limit', severity: 'ERROR' });
    });

    it('attaches the roles that apply to each organization', async () => {
      const res = await t.call('admin@northwind.example', { method: 'GET', url: `/api/organizations/${t.org.contoso}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ organization_name: 'Contoso', parent_organization_name: 'Northwind Networks', domains: ['contoso.example'], roles: [{ role: 'ADMINISTRATOR' }] });
    });

    it('treats an organization without an applying role as missing', async () => {
      for (const email of ['issuer@northwind.example', 'issuer@contoso.example']) {
        const res = await t.call(email, { method: 'GET', url: `/api/organizations/${t.org.operator}` });
        expect(res.statusCode).toBe(404);
      }
      expect((await t.call('issuer@contoso.example', { method: 'GET', url: '/api/organizations/no-such-id' })).statusCode).toBe(404);
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
    });

    it('answers unknown API paths with a JSON 404', async () => {
      const res = await t.call('supervisor@operator.example', { method: 'GET', url: '/api/nothing-here' });
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
        await t.call('supervisor@operator.example', { method: 'GET', url: `/api/organizations/${t.org.contoso}/certificates` }),
        await t.app.inject('/api/organizations'),
        await t.call('member@contoso.example', { method: 'GET', url: '/api/piston/certs' }),
      ]) {
        expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', 'referrer-policy': 'no-referrer', 'strict-transport-security': 'max-age=31536000; includeSubDomains' });
      }
    });
  });
});
