/**
 * List totals (db/count-cache.ts) are kept per instance, yet X-Total-Count is always the true count:
 * after any write, whoever makes it (also outside the portal), and at the very instant a filter
 * that reads the clock changes its answer. Each total is compared with a count of the rows
 * themselves, on both engines.
 */
import { describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';

const dialects = await testDialects();
const SUPERVISOR = 'supervisor@operator.example';

describe.each(dialects)('list totals on %s', (dialect) => {
  const t = useTestApp(dialect);
  const total = async (url: string) => {
    const res = await t.call(SUPERVISOR, { method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return Number(res.headers['x-total-count']);
  };
  const certificates = () => `/api/organizations/${t.org.contoso}/certificates`;
  const countRows = async (table: 'certificates' | 'licenses' | 'members' | 'organizations', organizationId?: string) => {
    let q = t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    if (organizationId) q = q.where('organization_id', '=', organizationId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  it('follows writes made outside the portal at the next call, in every list', async () => {
    const lists = [
      [certificates(), () => countRows('certificates', t.org.contoso)],
      ['/api/certificates', () => countRows('certificates')],
      ['/api/licenses', () => countRows('licenses')],
      [`/api/organizations/${t.org.contoso}/members`, () => countRows('members', t.org.contoso)],
      ['/api/organizations', () => countRows('organizations')],
    ] as const;
    for (const [url, rows] of lists) expect(await total(url)).toBe(await rows()); // counted, then kept
    const [certificate] = await t.db.selectFrom('certificates').selectAll().where('organization_id', '=', t.org.contoso).execute();
    const [license] = await t.db.selectFrom('licenses').selectAll().execute();
    const [member] = await t.db.selectFrom('members').selectAll().where('organization_id', '=', t.org.contoso).execute();
    await t.db.deleteFrom('certificates').where('distinguished_name', '=', certificate.distinguished_name).execute();
    await t.db.deleteFrom('licenses').where('license_id', '=', license.license_id).execute();
    await t.db.updateTable('members').set({ organization_id: t.org.northwind }).where('member_id', '=', member.member_id).execute();
    await t.db.insertInto('organizations').values({
      organization_id: '00000000-0000-4000-8000-00000000abcd', organization_name: 'Counted Later', organization_role: 'CUSTOMER',
      parent_organization_id: t.org.northwind, website: null, logo_url: null, address: null, ban_note: null,
      date_organization_banned: null, date_created: t.clock.now().toISOString(),
    }).execute();
    for (const [url, rows] of lists) expect(await total(url)).toBe(await rows());
  });

  it('changes a total that reads the clock at the instant a certificate expires', async () => {
    const url = `${certificates()}?hideExpired=true`;
    const live = async () => {
      const at = t.clock.now().toISOString();
      return Number((await t.db.selectFrom('certificates').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', t.org.contoso).where('date_not_after', '>', at).executeTakeFirstOrThrow()).n);
    };
    const next = await t.db.selectFrom('certificates').select('date_not_after').where('organization_id', '=', t.org.contoso)
      .where('date_not_after', '>', t.clock.now().toISOString()).orderBy('date_not_after').executeTakeFirstOrThrow();
    const before = await total(url);
    expect(before).toBe(await live());
    t.clock.set(new Date(Date.parse(next.date_not_after) - 1));
    expect(await total(url)).toBe(before);
    t.clock.set(next.date_not_after);
    expect(await total(url)).toBe(await live());
    expect(await total(url)).toBeLessThan(before);
  });
});
