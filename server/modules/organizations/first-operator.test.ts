/**
 * The first operator (docs/decisions.md "The first operator"): on an empty database OPERATOR_ADMIN_EMAIL's person
 * becomes the operator's SUPERVISOR and ADMINISTRATOR and can set the portal up; on a database with any
 * organization nothing is made, whatever the settings say.
 */
import { describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { loadConfig } from '../../config';
import { createFirstOperator } from './first-operator';

const dialects = await testDialects();
const OPS = 'ops@vendor.example';

describe('OPERATOR_ADMIN_EMAIL and OPERATOR_NAME', () => {
  it('take an email in lower case and a name, and refuse what is neither', () => {
    expect(loadConfig({ NODE_ENV: 'production', OPERATOR_ADMIN_EMAIL: ' Ops@Vendor.Example ' }).firstOperator).toEqual({ name: 'Operator', email: OPS });
    expect(loadConfig({ OPERATOR_ADMIN_EMAIL: OPS, OPERATOR_NAME: 'Vendor Networks' }).firstOperator).toEqual({ name: 'Vendor Networks', email: OPS });
    expect(loadConfig({}).firstOperator).toBeUndefined();
    expect(() => loadConfig({ OPERATOR_ADMIN_EMAIL: 'ops at vendor' })).toThrow(/OPERATOR_ADMIN_EMAIL: must be an email address/);
    expect(() => loadConfig({ OPERATOR_ADMIN_EMAIL: OPS, OPERATOR_NAME: ' ' })).toThrow(/OPERATOR_NAME: must not be empty/);
  });
});

describe.each(dialects)('the first operator on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });

  it('is made once on an empty database, and that person sets the portal up', async () => {
    expect((await t.call(OPS, { method: 'GET', url: '/api/organizations' })).statusCode).toBe(403);
    expect(await createFirstOperator(t.db, { name: 'Vendor Networks', email: OPS }, t.clock.now())).toBe(true);

    const organizations = (await t.call(OPS, { method: 'GET', url: '/api/organizations' })).json();
    expect(organizations).toEqual([expect.objectContaining({ organization_name: 'Vendor Networks', organization_role: 'OPERATOR' })]);
    const operator = organizations[0].organization_id;
    const partner = await t.call(OPS, { method: 'POST', url: '/api/organizations', payload: { organization_name: 'First Partner', organization_role: 'PARTNER' } });
    expect(partner.statusCode).toBe(201);
    const journal = (await t.call(OPS, { method: 'GET', url: `/api/organizations/${operator}/auditrecords` })).json();
    expect(journal.map((r: { message: string }) => r.message)).toContain(
      `Created the operator organization Vendor Networks at the portal's first start, with ${OPS} as its supervisor and administrator (OPERATOR_ADMIN_EMAIL).`,
    );

    // A later start, even with other settings, changes nothing.
    expect(await createFirstOperator(t.db, { name: 'Another Operator', email: 'someone@vendor.example' }, t.clock.now())).toBe(false);
    const after = await t.db.selectFrom('organizations').select('organization_name').orderBy('organization_name').execute();
    expect(after.map((o) => o.organization_name)).toEqual(['First Partner', 'Vendor Networks']);
    expect((await t.call('someone@vendor.example', { method: 'GET', url: '/api/organizations' })).statusCode).toBe(403);
  });
});
