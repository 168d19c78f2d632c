/**
 * What an instance keeps (the organization tree, db/kept.ts) never outlives a change: a ban, a role change or a
 * moved organization takes effect at the very next call, whoever wrote it, and on every instance of one PostgreSQL
 * database (the sign-in itself is read afresh on every call, auth/sign-in.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases';
import { factories, type Cooperation } from '../support/factories';
import { useTestApp } from '../support/test-app';
import { START } from '../support/tokens';
import { useTwoInstances } from '../support/two-instances';

const dialects = await testDialects();

describe.each(dialects)('access cache on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const customer = () => `/api/organizations/${w.customer.id}`;

  it('shuts a banned member out at the next call even when the ban is written outside the portal', async () => {
    const member = await make.member(w.customer);
    for (let i = 0; i < 2; i++) expect((await t.call(member.email, { method: 'GET', url: customer() })).statusCode).toBe(200);
    await t.db.updateTable('members').set({ date_member_banned: START.toISOString() }).where('member_id', '=', member.id).execute();
    expect((await t.call(member.email, { method: 'GET', url: customer() })).statusCode).toBe(403);
    await t.db.updateTable('members').set({ date_member_banned: null }).where('member_id', '=', member.id).execute();
    expect((await t.call(member.email, { method: 'GET', url: customer() })).statusCode).toBe(200);
  });

  it('shuts out a call that comes after a ban even while calls from before it are under way', async () => {
    // Each request reads the versions itself (db/versions.ts): one that comes after a ban never uses what was
    // kept before it.
    const member = await make.member(w.customer);
    // One token, verified once: the calls below then reach the versions within one turn of the event loop.
    const headers = await t.as(member.email);
    const call = () => t.app.inject({ method: 'GET', url: customer(), headers });
    expect((await call()).statusCode).toBe(200);
    const before = call();
    await t.db.updateTable('members').set({ date_member_banned: START.toISOString() }).where('member_id', '=', member.id).execute();
    const after = call();
    expect([200, 403]).toContain((await before).statusCode);
    expect((await after).statusCode).toBe(403);
  });

  it('applies a role taken away at the next call', async () => {
    const issuer = await make.member(w.customer, { role: 'ISSUER' });
    const upload = { method: 'POST' as const, url: `${customer()}/certificates`, payload: { certificate: 'not a certificate' } };
    // Allowed to try (400 for the PEM), then refused (403) once the role is gone.
    expect((await t.call(issuer.email, upload)).statusCode).toBe(400);
    await t.db.updateTable('role_assignments').set({ role: 'MEMBER' }).where('member_id', '=', issuer.id).where('role', '=', 'ISSUER').execute();
    expect((await t.call(issuer.email, upload)).statusCode).toBe(403);
  });

  it('follows an organization moved to another parent at the next call', async () => {
    const partnerAdmin = await make.member(w.partner, { role: 'ADMINISTRATOR', scope: 'COOPERATION' });
    const moved = await make.organization({ parent: w.partner });
    const url = `/api/organizations/${moved.id}`;
    expect((await t.call(partnerAdmin.email, { method: 'GET', url })).statusCode).toBe(200);
    const lists = async () => (await t.call(partnerAdmin.email, { method: 'GET', url: '/api/organizations' })).json().map((o: { organization_id: string }) => o.organization_id);
    expect(await lists()).toContain(moved.id);
    await t.db.updateTable('organizations').set({ parent_organization_id: w.operator.id }).where('organization_id', '=', moved.id).execute();
    expect((await t.call(partnerAdmin.email, { method: 'GET', url })).statusCode).toBe(404);
    expect(await lists()).not.toContain(moved.id);
  });
});

describe.runIf(dialects.includes('postgres'))('two instances on one PostgreSQL', () => {
  const two = useTwoInstances(async (db) => {
    const make = factories({ db });
    const w = await make.cooperation();
    // Something to export: a public resource (routes.hcl lists every active organization) and a trusted certificate.
    await make.resource({ access: 'PUBLIC' });
    await make.certificate(w.customer, 'approved');
    return w;
  });
  const { as } = two;

  it('sees a ban made through one instance at the next call to the other', async () => {
    const member = await as(two.data.member.email);
    const url = `/api/organizations/${two.data.customer.id}`;
    for (const app of [two.a, two.b, two.a, two.b]) expect((await app.inject({ method: 'GET', url, headers: member })).statusCode).toBe(200);
    const memberId = two.data.member.id;
    const ban = await two.a.inject({ method: 'POST', url: `${url}/members/${memberId}/ban`, headers: await as(two.data.supervisor.email) });
    expect(ban.statusCode).toBe(200);
    expect((await two.b.inject({ method: 'GET', url, headers: member })).statusCode).toBe(403);
    expect((await two.a.inject({ method: 'GET', url, headers: member })).statusCode).toBe(403);
    expect((await two.b.inject({ method: 'POST', url: `${url}/members/${memberId}/unban`, headers: await as(two.data.supervisor.email) })).statusCode).toBe(200);
    expect((await two.a.inject({ method: 'GET', url, headers: member })).statusCode).toBe(200);
  });

  // The other instance learns of the change by NOTIFY (db/export-epoch.ts): within a moment, not
  // necessarily at its very next call, which may run before the notification has been read.
  it('serves the same export ETag from both, and a change through one within a moment at the other', async () => {
    const devops = await as(two.data.devops.email);
    const etags = async (path: string) =>
      Promise.all([two.a, two.b].map(async (app) => String((await app.inject({ method: 'GET', url: `/api/piston/${path}`, headers: devops })).headers.etag)));
    for (const path of ['routes.hcl', 'certs']) {
      const [fromA, fromB] = await etags(path);
      expect(fromA).toBe(fromB);
      // A poll with the ETag it has is answered 304 by either instance.
      for (const app of [two.a, two.b]) expect((await app.inject({ method: 'GET', url: `/api/piston/${path}`, headers: { ...devops, 'if-none-match': fromA } })).statusCode).toBe(304);
    }
    const [routesBefore] = await etags('routes.hcl');
    // The banned organization is not in routes.hcl; unbanning it through instance A adds it to routes.hcl served by B.
    expect((await two.a.inject({ method: 'POST', url: `/api/organizations/${two.data.banned.id}/unban`, headers: await as(two.data.supervisor.email) })).statusCode).toBe(200);
    let [routesA, routesB] = await etags('routes.hcl');
    for (const until = Date.now() + 5_000; routesB === routesBefore && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 20));
      [routesA, routesB] = await etags('routes.hcl');
    }
    expect(routesB).not.toBe(routesBefore);
    expect(routesA).toBe(routesB);
    const [certsA, certsB] = await etags('certs');
    expect(certsA).toBe(certsB);
  });
});
