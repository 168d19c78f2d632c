/**
 * Vendor support access with the customer's consent (issue 33 item 2) on both engines: request, notice, approval,
 * acting under it (journaled "name (vendor support, request #N)"), ending early; bad input (400/403/409, nothing
 * changed); the end at t − 1 ms / t / t + 1 ms; a request's lapse after 24 h; the expiry journaled once; one winner of
 * concurrent decisions; auto-approval; break glass; the access review; and two instances on one PostgreSQL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { scanTime } from '../../server/modules/notifications/scan';
import { dispatchEvents } from '../../server/modules/notifications/dispatch';
import { testDialects } from '../support/databases';
import { factories, type Cooperation, type Person } from '../support/factories';
import { useTestApp } from '../support/test-app';
import { START } from '../support/tokens';
import { useTwoInstances } from '../support/two-instances';

const dialects = await testDialects();
const HOUR = 3_600_000;
const OPTIONS = { publicUrl: 'http://localhost:8080', mail: false };

describe.each(dialects)('support access on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });

  /** A customer with its own administrator, and a DevOps engineer of the operator whose roles do not reach it. */
  async function scene() {
    const customer = await make.organization({ parent: w.partner });
    const admin = await make.member(customer, { role: 'ADMINISTRATOR' });
    const engineer = await make.member(w.operator, { role: 'DEVOPS', scope: 'ORGANIZATION' });
    const base = `/api/organizations/${customer.id}/support-access`;
    const ask = (payload: Record<string, unknown>, who: Person = engineer) => t.call(who.email, { method: 'POST', url: base, payload });
    const act = (id: number, what: 'approve' | 'deny' | 'end', who: Person = admin) => t.call(who.email, { method: 'POST', url: `${base}/${id}/${what}` });
    const licenses = (who: Person = engineer) => t.call(who.email, { method: 'GET', url: `/api/organizations/${customer.id}/licenses` });
    const journal = (organizationId: string) => t.db.selectFrom('audit_records').select(['reason', 'message', 'member_email'])
      .where('organization_id', '=', organizationId).where('reason', 'like', 'SUPPORT_ACCESS_%').orderBy('sequence').execute();
    return { customer, admin, engineer, base, ask, act, licenses, journal };
  }
  const requests = async () => Number((await t.db.selectFrom('support_requests').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const records = async () => Number((await t.db.selectFrom('audit_records').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('lets a support engineer in only after the administrator approves, journals every step on both sides, and ends at the next call', async () => {
    const s = await scene();
    expect((await s.licenses()).statusCode).toBe(404);
    const asked = await s.ask({ reason: 'Incident 4711: license check fails', hours: 2 });
    expect(asked.statusCode, asked.body).toBe(201);
    const request = asked.json();
    expect(request).toMatchObject({ role: 'MEMBER', state: 'REQUESTED', hours: 2, break_glass: false, date_until: null, requester: { email: s.engineer.email } });
    expect((await s.licenses()).statusCode).toBe(404);

    await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    const notices = await t.db.selectFrom('notices').select(['member_id', 'title', 'link']).where('event_type', '=', 'support_access.requested')
      .where('organization_id', '=', s.customer.id).execute();
    expect(notices.map((n) => n.member_id).sort()).toEqual([s.admin.id, s.engineer.id].sort());
    expect(notices[0].link).toBe(`/organizations/${s.customer.id}/support-access`);

    const list = await t.call(s.admin.email, { method: 'GET', url: s.base });
    expect(list.json().items).toEqual([expect.objectContaining({ request_id: request.request_id, abilities: ['approve', 'deny', 'end'] })]);
    const approved = await s.act(request.request_id, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ state: 'APPROVED', decided_by: s.admin.email, date_until: new Date(START.getTime() + 2 * HOUR).toISOString() });

    expect((await s.licenses()).statusCode).toBe(200);
    // Read only: MEMBER changes nothing.
    expect((await t.call(s.engineer.email, { method: 'POST', url: `/api/organizations/${s.customer.id}/certificates`, payload: { certificate: 'x' } })).statusCode).toBe(403);
    const active = await t.call(s.engineer.email, { method: 'GET', url: `${s.base}/active` });
    expect(active.json().items).toEqual([expect.objectContaining({ request_id: request.request_id, mine: true, can_end: true, name: s.engineer.name })]);
    const seen = await t.call(s.admin.email, { method: 'GET', url: `${s.base}/active` });
    expect(seen.json().items).toEqual([expect.objectContaining({ mine: false, can_end: true })]);

    const ended = await s.act(request.request_id, 'end');
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ state: 'ENDED', ended_by: s.admin.email });
    expect((await s.licenses()).statusCode).toBe(404);

    const reasons = ['SUPPORT_ACCESS_REQUESTED', 'SUPPORT_ACCESS_APPROVED', 'SUPPORT_ACCESS_ENDED'];
    for (const side of [s.customer.id, w.operator.id]) {
      // The operator's journal holds other tests' requests too: this one's only.
      const rows = (await s.journal(side)).filter((r) => r.message.includes(`#${request.request_id} `));
      expect(rows.map((r) => r.reason), side).toEqual(reasons);
      expect(rows[0].message).toContain(`support access #${request.request_id} of ${s.engineer.name}`);
    }
    // The events are the customer's, one per change: the operator's record is the same change's echo.
    const events = await t.db.selectFrom('events').select(['event_type', 'organization_id']).where('subject_type', '=', 'support_access')
      .where('subject_id', '=', String(request.request_id)).orderBy('event_id').execute();
    expect(events).toEqual(['support_access.requested', 'support_access.approved', 'support_access.ended'].map((event_type) => ({ event_type, organization_id: s.customer.id })));
  });

  it('journals what the support person does as "name (vendor support, request #N)" in the customer\'s journal', async () => {
    const s = await scene();
    const supervisor = await make.member(w.operator, { role: 'SUPERVISOR', scope: 'ORGANIZATION' });
    const asked = await s.ask({ role: 'ISSUER', reason: 'upload the new gateway certificate', hours: 1 }, supervisor);
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json().request_id;
    expect((await s.act(id, 'approve')).statusCode).toBe(200);
    const res = await t.call(supervisor.email, { method: 'PUT', url: `/api/organizations/${s.customer.id}/members/${s.admin.id}`, payload: { name: 'x' } });
    expect(res.statusCode).toBe(403);
    const acknowledged = await t.call(supervisor.email, { method: 'POST', url: `/api/organizations/${s.customer.id}/licenses`, payload: { license_name: 'Support test', scope: 'LAB', days_valid: 30 } });
    expect([201, 400]).toContain(acknowledged.statusCode);
    const exported = await t.call(supervisor.email, { method: 'GET', url: `/api/organizations/${s.customer.id}/licenses.csv` });
    expect(exported.statusCode).toBe(200);
    const [record] = await t.db.selectFrom('audit_records').select(['message', 'member_email']).where('organization_id', '=', s.customer.id)
      .where('reason', '=', 'LIST_EXPORTED').execute();
    expect(record.member_email).toBe(supervisor.email);
    expect(record.message.startsWith(`${supervisor.name} (vendor support, request #${id}): `)).toBe(true);
  });

  it('lends an administrator\'s role but never its API keys: a key made under it would outlive the access', async () => {
    const s = await scene();
    const supervisor = await make.member(w.operator, { role: 'SUPERVISOR', scope: 'ORGANIZATION' });
    const asked = await s.ask({ role: 'ADMINISTRATOR', reason: 'fix the customer\'s pipeline', hours: 1 }, supervisor);
    expect(asked.statusCode, asked.body).toBe(201);
    expect((await s.act(asked.json().request_id, 'approve')).statusCode).toBe(200);
    const organization = await t.call(supervisor.email, { method: 'GET', url: `/api/organizations/${s.customer.id}` });
    expect(organization.json().abilities).toEqual(expect.arrayContaining(['member.invite', 'organization.save']));
    expect(organization.json().abilities).not.toContain('apiKey.manage');
    const keys = await t.db.selectFrom('api_keys').select('api_key_id').where('organization_id', '=', s.customer.id).execute();
    const created = await t.call(supervisor.email, {
      method: 'POST', url: `/api/organizations/${s.customer.id}/api-keys`,
      payload: { name: 'support', roles: [{ role: 'ISSUER', scope: 'ORGANIZATION' }], date_expires: new Date(t.clock.now().getTime() + 24 * HOUR).toISOString() },
    });
    expect(created.statusCode, created.body).toBe(403);
    expect((await t.call(supervisor.email, { method: 'GET', url: `/api/organizations/${s.customer.id}/api-keys` })).statusCode).toBe(403);
    expect(await t.db.selectFrom('api_keys').select('api_key_id').where('organization_id', '=', s.customer.id).execute()).toEqual(keys);
    // The customer's own administrator still may.
    expect((await t.call(s.admin.email, { method: 'GET', url: `/api/organizations/${s.customer.id}/api-keys` })).statusCode).toBe(200);
  });

  it('refuses bad input with a clear 400/403/409 and changes nothing', async () => {
    const s = await scene();
    const before = [await requests(), await records()];
    const cases: Array<[Record<string, unknown>, number, RegExp, Person?]> = [
      [{ reason: 'x', hours: 0 }, 400, /hours/],
      [{ reason: 'x', hours: 73 }, 400, /hours/],
      [{ reason: 'x', hours: 1.5 }, 400, /hours/],
      [{ reason: '   ', hours: 2 }, 400, /reason/],
      [{ hours: 2 }, 400, /reason/],
      [{ reason: 'x', hours: 2, role: 'APPROVER' }, 400, /never APPROVER/],
      [{ reason: 'x', hours: 2, role: 'ADMINISTRATOR' }, 403, /MEMBER or ISSUER, not ADMINISTRATOR/],
      [{ reason: 'x', hours: 2, break_glass: true }, 403, /supervisors/],
      [{ reason: 'x', hours: 2 }, 403, /supervisors and DevOps/, w.approver],
    ];
    for (const [payload, status, message, who] of cases) {
      const res = await s.ask(payload, who);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message, JSON.stringify(payload)).toMatch(message);
    }
    const supervisor = await make.member(w.operator, { role: 'SUPERVISOR', scope: 'ORGANIZATION' });
    const glass = await s.ask({ reason: 'x', hours: 5, break_glass: true }, supervisor);
    expect(glass.statusCode).toBe(400);
    expect(glass.json().message).toMatch(/at most 4 hours/);
    // The operator itself is no target: its staff have their roles.
    expect((await t.call(s.engineer.email, { method: 'POST', url: `/api/organizations/${w.operator.id}/support-access`, payload: { reason: 'x', hours: 1 } })).statusCode).toBe(403);
    expect([await requests(), await records()]).toEqual(before);

    const id = (await s.ask({ reason: 'a look', hours: 1 })).json().request_id;
    const twice = await s.ask({ reason: 'again', hours: 1 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(new RegExp(`#${id}`));
    const own = await s.act(id, 'approve', s.engineer);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('You cannot approve your own support request.');
    // The partner's administrator consents for its customer; the vendor's own administrator does not.
    expect((await s.act(id, 'approve', w.operatorAdmin)).statusCode).toBe(403);
    // A customer member reads the organization but may not decide.
    const member = await make.member(s.customer);
    expect((await s.act(id, 'approve', member)).statusCode).toBe(403);
    expect((await s.act(id, 'end')).statusCode).toBe(200);
    const late = [await requests(), await records()];
    const again = await s.act(id, 'approve');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`Support request #${id} has ended.`);
    expect((await s.act(id, 'deny')).statusCode).toBe(409);
    expect((await s.act(id, 'end')).statusCode).toBe(409);
    expect((await s.act(999_999, 'approve')).statusCode).toBe(404);
    expect((await s.act('abc' as unknown as number, 'approve')).statusCode).toBe(404);
    expect([await requests(), await records()]).toEqual(late);

    // Expired: approving it again is a 409 naming that.
    const expiring = (await s.ask({ reason: 'short look', hours: 1 })).json().request_id;
    expect((await s.act(expiring, 'approve', w.partnerAdmin)).statusCode).toBe(200);
    t.clock.set(new Date(START.getTime() + HOUR));
    const expired = await s.act(expiring, 'approve');
    expect(expired.statusCode).toBe(409);
    expect(expired.json().message).toBe(`Support request #${expiring} has expired.`);
    expect((await s.act(expiring, 'end')).statusCode).toBe(409);
  });

  it('counts the access until the instant before its end, not from it on; the expiry journaled once', async () => {
    const s = await scene();
    const id = (await s.ask({ reason: 'incident', hours: 3 })).json().request_id;
    expect((await s.act(id, 'approve')).statusCode).toBe(200);
    const until = START.getTime() + 3 * HOUR;
    expect((await s.licenses()).statusCode).toBe(200);
    t.clock.set(new Date(until - 1));
    expect((await s.licenses()).statusCode).toBe(200);
    t.clock.set(new Date(until));
    expect((await s.licenses()).statusCode).toBe(404);
    t.clock.set(new Date(until + 1));
    expect((await s.licenses()).statusCode).toBe(404);
    const list = await t.call(s.admin.email, { method: 'GET', url: s.base });
    expect(list.json().items[0]).toMatchObject({ state: 'EXPIRED', abilities: [] });
    await scanTime(t.db, new Date(until - 1));
    expect((await s.journal(s.customer.id)).filter((r) => r.reason === 'SUPPORT_ACCESS_EXPIRED')).toEqual([]);
    await Promise.all([scanTime(t.db, new Date(until)), scanTime(t.db, new Date(until + 1)), scanTime(t.db, new Date(until + 1))]);
    for (const side of [s.customer.id, w.operator.id]) {
      const expired = (await s.journal(side)).filter((r) => r.reason === 'SUPPORT_ACCESS_EXPIRED' && r.message.includes(`#${id} `));
      expect(expired, side).toHaveLength(1);
      expect(expired[0]).toMatchObject({ member_email: null, message: expect.stringContaining('ended as scheduled') });
    }
    const row = await t.db.selectFrom('support_requests').select(['state']).where('request_id', '=', id).executeTakeFirstOrThrow();
    expect(row.state).toBe('EXPIRED');
  });

  it('lets a request wait 24 hours: from then on it is expired, cannot be approved, and may be asked again; the lapse journaled once', async () => {
    const s = await scene();
    const id = (await s.ask({ reason: 'incident', hours: 2 })).json().request_id;
    const lapses = START.getTime() + 24 * HOUR;
    t.clock.set(new Date(lapses - 1));
    const waiting = await t.call(s.admin.email, { method: 'GET', url: s.base });
    expect(waiting.json().items[0]).toMatchObject({ request_id: id, state: 'REQUESTED', abilities: ['approve', 'deny', 'end'] });
    expect((await s.ask({ reason: 'again', hours: 2 })).statusCode).toBe(409);

    t.clock.set(new Date(lapses));
    const lapsed = await t.call(s.admin.email, { method: 'GET', url: s.base });
    expect(lapsed.json().items[0]).toMatchObject({ request_id: id, state: 'EXPIRED', abilities: [] });
    const refused = await s.act(id, 'approve');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('nobody decided within 24 hours');
    expect((await s.act(id, 'end', s.engineer)).statusCode).toBe(409);
    expect((await s.licenses()).statusCode).toBe(404);
    const row = await t.db.selectFrom('support_requests').select(['state', 'date_decided']).where('request_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'REQUESTED', date_decided: null });

    await scanTime(t.db, new Date(lapses - 1));
    expect((await s.journal(s.customer.id)).filter((r) => r.reason === 'SUPPORT_ACCESS_EXPIRED')).toEqual([]);
    await Promise.all([scanTime(t.db, new Date(lapses)), scanTime(t.db, new Date(lapses + 1))]);
    for (const side of [s.customer.id, w.operator.id]) {
      const expired = (await s.journal(side)).filter((r) => r.reason === 'SUPPORT_ACCESS_EXPIRED' && r.message.includes(`#${id} `));
      expect(expired, side).toEqual([expect.objectContaining({ member_email: null, message: expect.stringContaining('lapsed at') })]);
    }
    const marked = await t.db.selectFrom('support_requests').select(['state', 'date_ended']).where('request_id', '=', id).executeTakeFirstOrThrow();
    expect(marked).toEqual({ state: 'EXPIRED', date_ended: new Date(lapses).toISOString() });
    const again = await s.ask({ reason: 'still broken', hours: 2 });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('lets exactly one of concurrent approve, deny and end win', async () => {
    const s = await scene();
    const once = async (calls: Array<() => Promise<{ statusCode: number }>>) => {
      const before = await records();
      const statuses = (await Promise.all(calls.map((call) => call()))).map((a) => a.statusCode);
      expect(statuses.filter((c) => c === 200), statuses.join()).toHaveLength(1);
      expect(statuses.filter((c) => c === 409), statuses.join()).toHaveLength(calls.length - 1);
      // The winner's change journaled on both sides, nothing for the losers.
      expect(await records()).toBe(before + 2);
    };
    for (let round = 0; round < 3; round++) {
      const id = (await s.ask({ reason: `race ${round}`, hours: 1 })).json().request_id;
      // Decisions on a waiting request (a withdrawal after an approval would be an end of the access, which may follow).
      await once([() => s.act(id, 'approve'), () => s.act(id, 'deny', w.partnerAdmin), () => s.act(id, 'approve', w.partnerAdmin)]);
      const row = await t.db.selectFrom('support_requests').select('state').where('request_id', '=', id).executeTakeFirstOrThrow();
      // Ends of a running access by everyone who may end it.
      if (row.state === 'APPROVED') await once([() => s.act(id, 'end'), () => s.act(id, 'end', w.partnerAdmin), () => s.act(id, 'end', s.engineer)]);
    }
  });

  it('approves automatically up to the organization\'s maximum when it says so, and not beyond', async () => {
    const s = await scene();
    const saved = await t.call(s.admin.email, { method: 'PUT', url: `${s.base}/settings`, payload: { auto_approve: true, max_hours: 4 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ auto_approve: true, max_hours: 4 });
    expect((await t.call(s.engineer.email, { method: 'PUT', url: `${s.base}/settings`, payload: { auto_approve: false, max_hours: 4 } })).statusCode).toBe(403);
    const long = await s.ask({ reason: 'long', hours: 5 });
    expect(long.json().state).toBe('REQUESTED');
    expect((await s.act(long.json().request_id, 'end', s.engineer)).statusCode).toBe(200);
    const short = await s.ask({ reason: 'short', hours: 4 });
    expect(short.json()).toMatchObject({ state: 'APPROVED', decided_by: 'automatically' });
    expect((await s.licenses()).statusCode).toBe(200);
    // The support person may give it up early.
    expect((await s.act(short.json().request_id, 'end', s.engineer)).statusCode).toBe(200);
    expect((await s.licenses()).statusCode).toBe(404);
  });

  it('lets only a supervisor break glass, active at once, marked, and told to the administrators', async () => {
    const s = await scene();
    const supervisor = await make.member(w.operator, { role: 'SUPERVISOR', scope: 'ORGANIZATION' });
    const res = await s.ask({ reason: 'Outage: gateway down', hours: 4, break_glass: true, role: 'ADMINISTRATOR' }, supervisor);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ state: 'APPROVED', break_glass: true, decided_by: 'break glass' });
    expect((await s.licenses(supervisor)).statusCode).toBe(200);
    const [glass] = (await s.journal(s.customer.id)).filter((r) => r.reason === 'SUPPORT_ACCESS_BREAK_GLASS');
    expect(glass.message).toMatch(/^BREAK GLASS: /);
    await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    const told = await t.db.selectFrom('notices').select('member_id').where('event_type', '=', 'support_access.break_glass').where('organization_id', '=', s.customer.id).execute();
    expect(told.map((n) => n.member_id)).toContain(s.admin.id);
    const exported = await t.call(supervisor.email, { method: 'GET', url: `/api/organizations/${s.customer.id}/licenses.csv` });
    expect(exported.statusCode).toBe(200);
    const [record] = await t.db.selectFrom('audit_records').select('message').where('organization_id', '=', s.customer.id).where('reason', '=', 'LIST_EXPORTED').execute();
    expect(record.message).toContain(`(vendor support, break glass, request #${res.json().request_id})`);
  });

  it('lists the running support accesses in the access review, JSON and CSV', async () => {
    const s = await scene();
    const id = (await s.ask({ reason: 'review', hours: 2 })).json().request_id;
    expect((await s.act(id, 'approve')).statusCode).toBe(200);
    const review = await t.call(s.admin.email, { method: 'GET', url: `/api/organizations/${s.customer.id}/access-review` });
    expect(review.statusCode, review.body).toBe(200);
    const items = review.json() as Array<Record<string, unknown>>;
    expect(items).toContainEqual(expect.objectContaining({
      kind: 'SUPPORT', support_request: id, member_email: s.engineer.email, role: 'MEMBER', scope: 'ORGANIZATION', granted_by: s.admin.email,
      until: new Date(START.getTime() + 2 * HOUR).toISOString(), break_glass: false,
    }));
    const only = await t.call(s.admin.email, { method: 'GET', url: `/api/organizations/${s.customer.id}/access-review?kind=SUPPORT` });
    expect(only.json().map((r: { kind: string }) => r.kind)).toEqual(['SUPPORT']);
    expect(only.headers['x-total-count']).toBe('1');
    const csv = await t.call(s.admin.email, { method: 'GET', url: `/api/organizations/${s.customer.id}/access-review.csv` });
    expect(csv.body).toContain('support_request');
    expect(csv.body).toContain(s.engineer.email);
    t.clock.set(new Date(START.getTime() + 2 * HOUR));
    const after = await t.call(s.admin.email, { method: 'GET', url: `/api/organizations/${s.customer.id}/access-review?kind=SUPPORT` });
    expect(after.json()).toEqual([]);
  });
});

describe.runIf(dialects.includes('postgres'))('support access on two instances of one PostgreSQL', () => {
  const two = useTwoInstances((db, clock) => factories({ db, clock }).cooperation(), { clock: true });
  const { as, clock } = two;

  const base = () => `/api/organizations/${two.data.customer.id}/support-access`;
  const read = async (app: FastifyInstance, email: string) =>
    (await app.inject({ method: 'GET', url: `/api/organizations/${two.data.customer.id}/licenses`, headers: await as(email) })).statusCode;

  it('ends early through one instance and the other refuses at its next call; the expiry journaled once with both scanning', async () => {
    clock.set(START);
    const make = factories({ db: two.database.db, clock });
    const engineer = await make.member(two.data.operator, { role: 'DEVOPS', scope: 'ORGANIZATION' });
    const ask = await two.a.inject({ method: 'POST', url: base(), headers: await as(engineer.email), payload: { reason: 'two instances', hours: 1 } });
    expect(ask.statusCode, ask.body).toBe(201);
    const id = ask.json().request_id;
    expect((await two.b.inject({ method: 'POST', url: `${base()}/${id}/approve`, headers: await as(two.data.partnerAdmin.email) })).statusCode).toBe(200);
    // Both instances let the engineer in.
    for (const app of [two.a, two.b, two.a, two.b]) expect(await read(app, engineer.email)).toBe(200);
    expect((await two.b.inject({ method: 'POST', url: `${base()}/${id}/end`, headers: await as(two.data.partnerAdmin.email) })).statusCode).toBe(200);
    for (const app of [two.a, two.b]) expect(await read(app, engineer.email)).toBe(404);

    const next = await two.a.inject({ method: 'POST', url: base(), headers: await as(engineer.email), payload: { reason: 'expires', hours: 1 } });
    const nextId = next.json().request_id;
    expect((await two.a.inject({ method: 'POST', url: `${base()}/${nextId}/approve`, headers: await as(two.data.partnerAdmin.email) })).statusCode).toBe(200);
    for (const app of [two.a, two.b]) expect(await read(app, engineer.email)).toBe(200);
    const until = START.getTime() + HOUR;
    clock.set(new Date(until - 1));
    for (const app of [two.a, two.b]) expect(await read(app, engineer.email)).toBe(200);
    clock.set(new Date(until));
    for (const app of [two.b, two.a]) expect(await read(app, engineer.email)).toBe(404);
    await Promise.all([scanTime(two.database.db, new Date(until)), scanTime(two.second, new Date(until)), scanTime(two.second, new Date(until + 1))]);
    const expired = await two.database.db.selectFrom('audit_records').select('organization_id').where('reason', '=', 'SUPPORT_ACCESS_EXPIRED')
      .where('message', 'like', `%#${nextId} %`).execute();
    expect(expired.map((r) => r.organization_id).sort()).toEqual([two.data.customer.id, two.data.operator.id].sort());
  });
});
