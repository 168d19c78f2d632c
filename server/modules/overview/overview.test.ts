/**
 * The overview (issue 12 item 6) on both engines: each count equals the total of the list filtered
 * on that status (the lists' chips and "expiring within N days"), the windows end exactly at now + N
 * days by the injected clock, the pending counts are the pending tasks' totals, the latest journal
 * records newest first, and who may see which: 401, 404 for a foreign organization, 403 for the
 * admin overview outside the operator's staff, and the admin overview counts only readable rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '../../../common/schemas/overview';
import { CERTIFICATE_STATUS_FILTERS } from '../../../common/status-filters';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation, type Org } from '../../../test/support/factories';
import { resolveActor } from '../../auth/actor';
import { OVERVIEW_TUNING } from './repository';
import { adminOverview } from './service';

const dialects = await testDialects();
const DAY = 86_400_000;

describe.each(dialects)('overview on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  /** A customer of the partner with certificates and licenses in every state, read by its own issuer. */
  let customer: Org;
  let issuer: string;

  beforeAll(async () => {
    w = await make.cooperation();
    customer = await make.organization({ parent: w.partner });
    issuer = (await make.member(customer, { role: 'ISSUER' })).email;
    for (const state of ['requested', 'approved', 'approved', 'future', 'expired', 'acknowledged', 'revoked'] as const) await make.certificate(customer, state);
    // Expiring in 5, 20 and 60 days: one per window.
    for (const to of [5, 20, 60]) await make.certificate(customer, 'approved', { from: -300, to });
    for (const state of ['requested', 'approved', 'future', 'rejected', 'renewable', 'expired', 'acknowledged', 'extension-requested', 'extended'] as const) {
      await make.license(customer, state);
    }
    for (let at = 12; at >= 1; at--) await make.journal(customer, { message: `Customer record ${at}.`, at: new Date(t.clock.now().getTime() - at * 60_000) });
  });

  async function overview(as: string, url: string): Promise<Overview> {
    const res = await t.call(as, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  const orgOverview = (as: string, org: { id: string }) => overview(as, `/api/organizations/${org.id}/overview`);
  async function total(as: string, url: string): Promise<number> {
    const res = await t.call(as, { method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}limit=1` });
    expect(res.statusCode, res.body).toBe(200);
    return Number(res.headers['x-total-count']);
  }

  /** Every count against the list it stands for, at the same instant (the clock stands still). */
  async function expectListsAgree(as: string, o: Overview, certificates: string, licenses: string) {
    expect(o.certificates.total).toBe(await total(as, certificates));
    for (const status of CERTIFICATE_STATUS_FILTERS) {
      const key = status === 'acknowledged' ? 'expiry_acknowledged' : status;
      expect(o.certificates[key], `certificates ${status}`).toBe(await total(as, `${certificates}?status=${status}`));
    }
    expect(o.licenses.total).toBe(await total(as, licenses));
    for (const key of ['not_approved', 'approved', 'valid', 'rejected', 'expired', 'extension_requested', 'expiry_acknowledged'] as const) {
      const status = key === 'expiry_acknowledged' ? 'acknowledged' : key;
      expect(o.licenses[key], `licenses ${status}`).toBe(await total(as, `${licenses}?status=${status}`));
    }
    for (const window of o.expiring) {
      expect(window.certificates, `certificates within ${window.days}`).toBe(await total(as, `${certificates}?status=approved&expiringWithin=${window.days}`));
      expect(window.licenses, `licenses within ${window.days}`).toBe(await total(as, `${licenses}?status=valid&expiringWithin=${window.days}`));
    }
  }

  it('counts each status of an organization as its list filtered on that status totals', async () => {
    const o = await orgOverview(issuer, customer);
    const base = `/api/organizations/${customer.id}`;
    await expectListsAgree(issuer, o, `${base}/certificates`, `${base}/licenses`);
    expect(o.organizations).toBe(1);
    expect(o.certificates).toMatchObject({ total: 10, not_approved: 1, revoked: 1, expired: 2, expiry_acknowledged: 1 });
    expect(o.expiring.map((e) => [e.days, e.certificates])).toEqual([[7, 1], [30, 2], [90, 3]]);
    expect(o.licenses).toMatchObject({ rejected: 1, extension_requested: 1, expiry_acknowledged: 1 });
    // The pending tasks' totals: the issuer reads this customer only.
    const approvals = (await t.call(issuer, { method: 'GET', url: '/api/approve' })).json();
    const acknowledgements = (await t.call(issuer, { method: 'GET', url: '/api/acknowledge' })).json();
    expect(o.pending).toEqual({
      certificate_approvals: approvals.certificates_total, license_approvals: approvals.licenses_total,
      certificate_acknowledgements: acknowledgements.certificates_total, license_acknowledgements: acknowledgements.licenses_total,
    });
    expect(o.pending.certificate_approvals).toBe(1);
    expect(o.pending.certificate_acknowledgements).toBe(1);
  });

  it('ends each window exactly at now + N days by the injected clock, and charts each expiry in its month', async () => {
    const org = await make.organization({ parent: w.partner });
    const reader = (await make.member(org, { role: 'MEMBER' })).email;
    const notAfter = t.clock.now().getTime() + 100 * DAY;
    await make.certificate(org, 'approved', { from: -10, to: 100 });
    await make.license(org, 'approved', { from: -10, days: 110 });
    const licenseUntil = t.clock.now().getTime() - (t.clock.now().getTime() % DAY) + 100 * DAY;
    const within = async (days: number) => (await orgOverview(reader, org)).expiring.find((e) => e.days === days)!;

    t.clock.set(new Date(notAfter - 30 * DAY));
    expect((await within(30)).certificates).toBe(1);
    expect((await within(7)).certificates).toBe(0);
    t.clock.set(new Date(notAfter - 30 * DAY - 1));
    expect((await within(30)).certificates).toBe(0);
    expect((await within(90)).certificates).toBe(1);

    t.clock.set(new Date(licenseUntil - 30 * DAY));
    expect((await within(30)).licenses).toBe(1);
    t.clock.set(new Date(licenseUntil - 30 * DAY - 1));
    expect((await within(30)).licenses).toBe(0);
    // At the end itself the certificate has expired: no longer expiring, and out of the chart.
    t.clock.set(new Date(notAfter));
    const atEnd = await orgOverview(reader, org);
    expect(atEnd.expiring.map((e) => e.certificates)).toEqual([0, 0, 0]);
    expect(atEnd.certificates.expired).toBe(1);

    t.clock.set(new Date(notAfter - 70 * DAY));
    const chart = (await orgOverview(reader, org)).expiries_by_month;
    expect(chart).toHaveLength(12);
    expect(chart[0].month).toBe(new Date(notAfter - 70 * DAY).toISOString().slice(0, 7));
    const month = new Date(notAfter).toISOString().slice(0, 7);
    expect(chart.filter((m) => m.certificates > 0)).toEqual([expect.objectContaining({ month, certificates: 1 })]);
    expect(chart.find((m) => m.month === new Date(licenseUntil).toISOString().slice(0, 7))!.licenses).toBe(1);
  });

  it('counts acknowledged certificates from the indexes as from the rows, a revoked acknowledged one included', async () => {
    const org = await make.organization({ parent: w.partner });
    const reader = (await make.member(org, { role: 'MEMBER' })).email;
    for (const state of ['approved', 'expired', 'acknowledged', 'acknowledged', 'revoked', 'requested'] as const) await make.certificate(org, state);
    // Acknowledged ahead of its end, and acknowledged then revoked: both keep the badge.
    const early = await make.certificate(org, 'approved');
    const revoked = await make.certificate(org, 'acknowledged');
    await t.db.updateTable('certificates').set({ date_expiry_acknowledged: t.clock.now().toISOString() }).where('distinguished_name', '=', early.dn).execute();
    await t.db.updateTable('certificates').set({ date_revoked: t.clock.now().toISOString() }).where('distinguished_name', '=', revoked.dn).execute();
    const fromRows = (await orgOverview(reader, org)).certificates;
    expect(fromRows.expiry_acknowledged).toBe(4);
    const saved = OVERVIEW_TUNING.acknowledgedFromRows;
    OVERVIEW_TUNING.acknowledgedFromRows = 0;
    try {
      await make.certificate(org, 'acknowledged'); // a write, so the kept counts are counted again
      expect((await orgOverview(reader, org)).certificates.expiry_acknowledged).toBe(5);
      expect(await total(reader, `/api/organizations/${org.id}/certificates?status=acknowledged`)).toBe(5);
    } finally {
      OVERVIEW_TUNING.acknowledgedFromRows = saved;
    }
  });

  it('shows the caller\'s own journal when it reads too many organizations to merge theirs', async () => {
    const staff = await make.member(w.operator, { role: 'MEMBER', scope: 'ORGANIZATION', more: [{ organization: w.partner, role: 'ADMINISTRATOR', scope: 'COOPERATION' }] });
    await make.journal(w.operator, { message: 'An operator record.' });
    const saved = OVERVIEW_TUNING.mergedJournals;
    OVERVIEW_TUNING.mergedJournals = 1;
    try {
      const o = await overview(staff.email, '/api/admin/overview');
      expect(o.journal.scope).toBe('own');
      expect(o.journal.records[0].message).toBe('An operator record.');
      expect(o.journal.records.every((r) => r.organization_id === w.operator.id)).toBe(true);
    } finally {
      OVERVIEW_TUNING.mergedJournals = saved;
    }
  });

  it('lists the latest journal records newest first, with their organization', async () => {
    const o = await orgOverview(issuer, customer);
    expect(o.journal.scope).toBe('organization');
    expect(o.journal.records.map((r) => r.message)).toEqual(Array.from({ length: 10 }, (_, i) => `Customer record ${i + 1}.`));
    expect(o.journal.records.every((r) => r.organization_id === customer.id && r.organization_name === customer.name)).toBe(true);
  });

  it('answers 401 without a token, 404 for an organization the caller cannot read, 403 for the admin overview outside the operator', async () => {
    for (const url of [`/api/organizations/${customer.id}/overview`, '/api/admin/overview']) {
      expect((await t.call(null, { method: 'GET', url })).statusCode).toBe(401);
    }
    // The customer's issuer cannot read the operator, and an unknown id reads the same.
    for (const id of [w.operator.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await t.call(issuer, { method: 'GET', url: `/api/organizations/${id}/overview` });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBe('Organization not found.');
    }
    // Admins of a partner see the admin area, but are no operator staff.
    for (const as of [w.partnerAdmin.email, w.member.email, issuer]) {
      const res = await t.call(as, { method: 'GET', url: '/api/admin/overview' });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toMatch(/operator/);
    }
  });

  // On SQLite a statement holds the event loop: counting every organization in one went on while nothing else could.
  it.runIf(dialect === 'sqlite')('lets other work run between the parts it counts every organization in', async () => {
    await make.certificate(await make.organization({ parent: w.operator }), 'approved'); // the kept counts no longer hold
    const identity = { subject: 's', email: w.supervisor.email, email_verified: true, verification_stated: true, name: null, given_name: null, family_name: null };
    const actor = await resolveActor(t.db, identity, t.clock.now());
    let turns = 0;
    let counting = true;
    const turn = () => {
      if (!counting) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const counted = await adminOverview(t.db, actor, t.clock.now());
    counting = false;
    expect(counted.certificates.total).toBeGreaterThan(0);
    // Sixteen parts, two tables each, a turn of the loop after each statement (none when counted in one).
    expect(turns).toBeGreaterThanOrEqual(32);
  });

  it('counts in the admin overview only the organizations the caller reads, as the admin lists', async () => {
    // The operator's supervisor reads every organization.
    const all = await overview(w.supervisor.email, '/api/admin/overview');
    await expectListsAgree(w.supervisor.email, all, '/api/certificates', '/api/licenses');
    expect(all.journal.scope).toBe('organizations');
    expect(all.journal.records.length).toBe(10);
    // Staff of the operator alone (ORGANIZATION) who administer the partner (COOPERATION): the operator, the partner and its customers.
    const partnerStaff = await make.member(w.operator, { role: 'MEMBER', scope: 'ORGANIZATION', more: [{ organization: w.partner, role: 'ADMINISTRATOR', scope: 'COOPERATION' }] });
    const some = await overview(partnerStaff.email, '/api/admin/overview');
    await expectListsAgree(partnerStaff.email, some, '/api/certificates', '/api/licenses');
    expect(some.certificates.total).toBeGreaterThanOrEqual(10);
    const other = await make.organization({ parent: w.operator });
    await make.certificate(other, 'approved');
    expect((await overview(partnerStaff.email, '/api/admin/overview')).certificates.total).toBe(some.certificates.total);
    expect((await overview(w.supervisor.email, '/api/admin/overview')).certificates.total).toBe(all.certificates.total + 1);
    // Its journal merges the few organizations it reads, newest first.
    const ids = some.journal.records.map((r) => r.record_id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(some.journal.records.some((r) => r.organization_id === customer.id)).toBe(true);
    expect(some.journal.records.every((r) => r.organization_id !== other.id)).toBe(true);
  });
});
