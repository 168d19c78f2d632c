import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';

const dialects = await testDialects();

describe.each(dialects)('journal API on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The factories' cooperation: its customer's journal is the one read; no test writes to it. */
  let w: Cooperation;
  const journal = () => `/api/organizations/${w.customer.id}/auditrecords`;
  const read = async (query = '', as = w.member.email) => {
    const res = await t.call(as, { method: 'GET', url: `${journal()}${query}` });
    expect(res.statusCode, query).toBe(200);
    return { records: res.json() as Array<{ record_id: number; reason: string; message: string; member_email: string | null; date_created: string }>, total: Number(res.headers['x-total-count']) };
  };

  // 1,100 records of the customer, plus one of the partner that must never show here: written
  // straight into the table, as an import would (1,100 calls through the audit path take long).
  beforeAll(async () => {
    w = await make.cooperation();
    const at = t.clock.now().toISOString();
    const rows = Array.from({ length: 1100 }, (_, i) => ({
      organization_id: w.customer.id,
      reason: i % 10 === 0 ? 'MEMBER_BANNED' : 'CERTIFICATE_UPLOADED',
      message: i % 10 === 0 ? `Banned member m${i}@contoso.example.` : `Uploaded certificate CN=gw${i}.contoso.example (100%_sure).`,
      member_email: w.issuer.email,
      date_created: at,
    }));
    for (let i = 0; i < rows.length; i += 250) await t.db.insertInto('audit_records').values(rows.slice(i, i + 250)).execute();
    await make.journal(w.partner, { reason: 'MEMBER_BANNED', message: 'Banned member x@northwind.example.' });
  });

  const contosoCount = async (reason?: string) => {
    let q = t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', w.customer.id);
    if (reason) q = q.where('reason', '=', reason);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  it('answers 401 without a token and 404 across tenants; any role that reads the organization may read it', async () => {
    expect((await t.call(null, { method: 'GET', url: journal() })).statusCode).toBe(401);
    expect((await t.call(w.partnerIssuer.email, { method: 'GET', url: journal() })).statusCode).toBe(404);
    expect((await t.call(w.issuer.email, { method: 'GET', url: `/api/organizations/${w.partner.id}/auditrecords` })).statusCode).toBe(404);
    expect((await t.call(w.issuer.email, { method: 'GET', url: '/api/organizations/no-such-id/auditrecords' })).statusCode).toBe(404);
    for (const as of [w.member.email, w.partnerAdmin.email, w.approver.email]) {
      expect((await t.call(as, { method: 'GET', url: journal() })).statusCode, as).toBe(200);
    }
  });

  it('returns the newest first, a page of 100 by default, with the total', async () => {
    const { records, total } = await read();
    expect(records).toHaveLength(100);
    expect(total).toBe(await contosoCount());
    const ids = records.map((r) => r.record_id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(Object.keys(records[0]).sort()).toEqual(['date_created', 'member_email', 'message', 'reason', 'record_id']);
    expect(records.every((r) => !r.message.includes('northwind'))).toBe(true);
  });

  it('clamps limit and offset instead of refusing them', async () => {
    for (const limit of ['0', '-3', '']) expect((await read(`?limit=${limit}`)).records, limit).toHaveLength(100);
    expect((await read('?limit=5000')).records).toHaveLength(1000);
    expect((await read('?limit=2.9')).records).toHaveLength(2);
    const first = (await read('?limit=3')).records;
    expect((await read('?limit=3&offset=-5')).records).toEqual(first);
    const bad = await t.call(w.member.email, { method: 'GET', url: `${journal()}?limit=many` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('limit');
  });

  it('pages through without gaps or repeats', async () => {
    const whole = (await read('?limit=30')).records.map((r) => r.record_id);
    const pages = [];
    for (let offset = 0; offset < 30; offset += 7) pages.push(...(await read(`?limit=7&offset=${offset}`)).records.map((r) => r.record_id));
    expect(pages.slice(0, 30)).toEqual(whole);
    expect((await read('?offset=100000')).records).toEqual([]);
  });

  it('filters on the reason code or the message, case-insensitively, with % and _ taken literally', async () => {
    const banned = await read('?filter=member_banned&limit=1000');
    expect(banned.total).toBe(await contosoCount('MEMBER_BANNED'));
    expect(banned.records.every((r) => r.reason === 'MEMBER_BANNED')).toBe(true);
    // gw17 and gw171..gw179 (gw170 is a ban record), newest first.
    const message = await read('?filter=GW17');
    expect(message.total).toBe(10);
    expect(message.records.map((r) => r.message.split(' ')[2])).toEqual([
      ...[9, 8, 7, 6, 5, 4, 3, 2, 1].map((d) => `CN=gw17${d}.contoso.example`),
      'CN=gw17.contoso.example',
    ]);
    expect((await read(`?filter=${encodeURIComponent('100%_sure')}`)).total).toBe(990);
    expect((await read(`?filter=${encodeURIComponent('1000%')}`)).total).toBe(0);
    expect((await read(`?filter=${encodeURIComponent('  ')}`)).total).toBe(await contosoCount());
  });

  it('shows each change on top of the journal of the organization concerned', async () => {
    // A customer of the partner of its own: the shared customer's journal stays as written.
    const customer = await make.organization({ parent: w.partner });
    const member = await make.member(customer);
    const admin = w.partnerAdmin.email;
    const url = `/api/organizations/${customer.id}/members/${member.id}`;
    expect((await t.call(admin, { method: 'PUT', url, payload: { job_role: 'Operator on duty' } })).statusCode).toBe(200);
    expect((await t.call(admin, { method: 'POST', url: `${url}/roles/assign?role=ISSUER&scope=ORGANIZATION` })).statusCode).toBe(200);
    expect((await t.call(admin, { method: 'PUT', url: `/api/organizations/${customer.id}`, payload: { address: 'Quay 3' } })).statusCode).toBe(200);
    const res = await t.call(member.email, { method: 'GET', url: `/api/organizations/${customer.id}/auditrecords?limit=3` });
    const top = res.json() as Array<{ reason: string; member_email: string | null; message: string; date_created: string }>;
    expect(top.map((r) => [r.reason, r.member_email, r.message])).toEqual([
      ['ORGANIZATION_SAVED', admin, `Saved organization ${customer.name} (address).`],
      ['ROLE_ASSIGNED', admin, `Assigned ISSUER (ORGANIZATION) to ${member.email}.`],
      ['MEMBER_SAVED', admin, `Saved member ${member.email} (job_role).`],
    ]);
    expect(top[0].date_created).toBe(t.clock.now().toISOString());
    const partner = await t.call(admin, { method: 'GET', url: `/api/organizations/${w.partner.id}/auditrecords?filter=${encodeURIComponent(customer.name)}` });
    expect(partner.statusCode).toBe(200);
    expect(partner.json()).toEqual([]);
  });
});
