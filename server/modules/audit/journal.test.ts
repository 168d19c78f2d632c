import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';

const dialects = await testDialects();

describe.each(dialects)('journal API on %s', (dialect) => {
  const t = useTestApp(dialect);
  const journal = () => `/api/organizations/${t.org.contoso}/auditrecords`;
  const read = async (query = '', as = 'member@contoso.example') => {
    const res = await t.call(as, { method: 'GET', url: `${journal()}${query}` });
    expect(res.statusCode, query).toBe(200);
    return { records: res.json() as Array<{ record_id: number; reason: string; message: string; member_email: string | null; date_created: string }>, total: Number(res.headers['x-total-count']) };
  };

  // 1,100 records of Contoso, plus a few of Northwind that must never show here.
  beforeAll(async () => {
    const at = t.clock.now().toISOString();
    const rows = Array.from({ length: 1100 }, (_, i) => ({
      organization_id: t.org.contoso,
      reason: i % 10 === 0 ? 'MEMBER_BANNED' : 'CERTIFICATE_UPLOADED',
      message: i % 10 === 0 ? `Banned member m${i}@contoso.example.` : `Uploaded certificate CN=gw${i}.contoso.example (100%_sure).`,
      member_email: 'issuer@contoso.example',
      date_created: at,
    }));
    for (let i = 0; i < rows.length; i += 250) await t.db.insertInto('audit_records').values(rows.slice(i, i + 250)).execute();
    await t.db.insertInto('audit_records').values({ organization_id: t.org.northwind, reason: 'MEMBER_BANNED', message: 'Banned member x@northwind.example.', member_email: null, date_created: at }).execute();
  });

  const contosoCount = async (reason?: string) => {
    let q = t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', t.org.contoso);
    if (reason) q = q.where('reason', '=', reason);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  it('answers 401 without a token and 404 across tenants; any role that reads the organization may read it', async () => {
    expect((await t.call(null, { method: 'GET', url: journal() })).statusCode).toBe(401);
    expect((await t.call('issuer@northwind.example', { method: 'GET', url: journal() })).statusCode).toBe(404);
    expect((await t.call('issuer@contoso.example', { method: 'GET', url: `/api/organizations/${t.org.northwind}/auditrecords` })).statusCode).toBe(404);
    expect((await t.call('issuer@contoso.example', { method: 'GET', url: '/api/organizations/no-such-id/auditrecords' })).statusCode).toBe(404);
    for (const as of ['member@contoso.example', 'admin@northwind.example', 'approver@operator.example']) {
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
    const bad = await t.call('member@contoso.example', { method: 'GET', url: `${journal()}?limit=many` });
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
    const member = await t.db.selectFrom('members').select('member_id').where('member_email', '=', 'member@contoso.example').executeTakeFirstOrThrow();
    const url = `/api/organizations/${t.org.contoso}/members/${member.member_id}`;
    expect((await t.call('admin@northwind.example', { method: 'PUT', url, payload: { job_role: 'Operator on duty' } })).statusCode).toBe(200);
    expect((await t.call('admin@northwind.example', { method: 'POST', url: `${url}/roles/assign?role=ISSUER&scope=ORGANIZATION` })).statusCode).toBe(200);
    expect((await t.call('admin@northwind.example', { method: 'PUT', url: `/api/organizations/${t.org.contoso}`, payload: { address: 'Quay 3' } })).statusCode).toBe(200);
    const { records } = await read('?limit=3');
    expect(records.map((r) => [r.reason, r.member_email, r.message])).toEqual([
      ['ORGANIZATION_SAVED', 'admin@northwind.example', 'Saved organization Contoso (address).'],
      ['ROLE_ASSIGNED', 'admin@northwind.example', 'Assigned ISSUER (ORGANIZATION) to member@contoso.example.'],
      ['MEMBER_SAVED', 'admin@northwind.example', 'Saved member member@contoso.example (job_role).'],
    ]);
    expect(records[0].date_created).toBe(t.clock.now().toISOString());
    const northwind = await t.call('admin@northwind.example', { method: 'GET', url: `/api/organizations/${t.org.northwind}/auditrecords?filter=contoso` });
    expect(northwind.json()).toEqual([]);
  });
});
