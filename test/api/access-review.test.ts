/**
 * The access review (issue 33): who holds which role in an organization, since and until when, granted by whom,
 * standing or time-boxed; its CSV; across organizations only those the caller may review; a time-boxed role leaves
 * it at its end.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases';
import { factories, type Cooperation } from '../support/factories';
import { useTestApp } from '../support/test-app';
import { START } from '../support/tokens';

const dialects = await testDialects();
const DAY = 86_400_000;

describe.each(dialects)('access review on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const review = (as: string, query = '') => t.call(as, { method: 'GET', url: `/api/organizations/${w.customer.id}/access-review${query}` });

  it('lists each role that counts, with since, until, granted by and kind, and drops a time-boxed one at its end', async () => {
    const contractor = await make.member(w.customer);
    const until = new Date(START.getTime() + 5 * DAY).toISOString();
    const url = `/api/organizations/${w.customer.id}/members/${contractor.id}/roles/assign?role=ISSUER&scope=ORGANIZATION&until=${until}`;
    expect((await t.call(w.partnerAdmin.email, { method: 'POST', url })).statusCode).toBe(200);
    const res = await review(w.partnerAdmin.email, '?limit=1000');
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Array<Record<string, unknown>>;
    expect(Number(res.headers['x-total-count'])).toBe(rows.length);
    expect(rows.filter((r) => r.member_id === contractor.id)).toEqual([
      expect.objectContaining({ role: 'ISSUER', kind: 'TIME_BOXED', until, since: START.toISOString(), granted_by: w.partnerAdmin.email, member_email: contractor.email }),
      expect.objectContaining({ role: 'MEMBER', kind: 'STANDING', until: null, since: null, granted_by: null }),
    ]);
    expect(rows.every((r) => r.organization_id === w.customer.id)).toBe(true);
    const boxed = (await review(w.partnerAdmin.email, '?kind=TIME_BOXED')).json() as Array<Record<string, unknown>>;
    expect(boxed.map((r) => r.member_id)).toEqual([contractor.id]);
    t.clock.set(until);
    expect((await review(w.partnerAdmin.email, '?kind=TIME_BOXED')).json()).toEqual([]);
  });

  it('is read by administrators and supervisors only: a member of the organization is refused', async () => {
    expect((await review(w.member.email)).statusCode).toBe(403);
    expect((await review(w.issuer.email)).statusCode).toBe(403);
    expect((await review(w.supervisor.email)).statusCode).toBe(200);
    expect((await t.call(w.member.email, { method: 'GET', url: '/api/access-review' })).json()).toEqual([]);
  });

  it('exports the same rows as CSV, journaled', async () => {
    const res = await t.call(w.partnerAdmin.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/access-review.csv` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('organization_id,organization_name,member_id,member_email,name,role,scope,kind,since,until,granted_by,support_request,break_glass');
    const json = (await review(w.partnerAdmin.email, '?limit=1000')).json() as unknown[];
    expect(lines).toHaveLength(json.length + 1);
    const record = await t.db.selectFrom('audit_records').select('message').where('reason', '=', 'LIST_EXPORTED')
      .where('organization_id', '=', w.customer.id).orderBy('record_id', 'desc').executeTakeFirstOrThrow();
    expect(record.message).toContain(`the access review of ${w.customer.name}`);
  });

  it('across organizations lists only those the caller may review', async () => {
    const partner = (await t.call(w.partnerAdmin.email, { method: 'GET', url: '/api/access-review?limit=1000' })).json() as Array<{ organization_id: string }>;
    expect(new Set(partner.map((r) => r.organization_id))).toEqual(new Set([w.partner.id, w.customer.id]));
    const staff = (await t.call(w.operatorAdmin.email, { method: 'GET', url: '/api/access-review?limit=1000' })).json() as Array<{ organization_id: string }>;
    expect(new Set(staff.map((r) => r.organization_id))).toEqual(new Set([w.operator.id, w.partner.id, w.customer.id, w.banned.id]));
    const csv = await t.call(w.operatorAdmin.email, { method: 'GET', url: '/api/access-review.csv' });
    expect(csv.body.trim().split('\r\n')).toHaveLength(staff.length + 1);
  });
});
