/**
 * Roles with an end (issue 33): `until` on assign; the role counts up to the instant before it and never from it on
 * (t − 1 ms, t, t + 1 ms with the injected clock), also for a sign-in kept from before; extending and ending early
 * apply at the next call; the time scan tells the holder and the administrators 7 days and 1 day before, and removes
 * and journals the role at its end exactly once, however many scans run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { formatUtcDateTime } from '../../common/dates';
import type { FastifyInstance } from 'fastify';
import { scanTime } from '../../server/modules/notifications/scan';
import { dispatchEvents } from '../../server/modules/notifications/dispatch';
import { testDialects } from '../support/databases';
import { factories, type Cooperation, type Person } from '../support/factories';
import { useTestApp } from '../support/test-app';
import { START } from '../support/tokens';
import { useTwoInstances } from '../support/two-instances';

const dialects = await testDialects();
const DAY = 86_400_000;
const OPTIONS = { publicUrl: 'http://localhost:8080', mail: false };

describe.each(dialects)('time-boxed roles on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const customer = () => `/api/organizations/${w.customer.id}`;
  const roles = (m: Person) => `${customer()}/members/${m.id}/roles`;
  const assign = (m: Person, query: string) => t.call(w.partnerAdmin.email, { method: 'POST', url: `${roles(m)}/assign?role=ISSUER&scope=ORGANIZATION${query}` });
  /** 400 for the PEM while the caller may upload, 403 once it may not. */
  const upload = (m: Person) => t.call(m.email, { method: 'POST', url: `${customer()}/certificates`, payload: { certificate: 'not a certificate' } });
  const records = async (reason: string) =>
    t.db.selectFrom('audit_records').select(['message', 'member_email']).where('organization_id', '=', w.customer.id).where('reason', '=', reason as never).execute();

  it('counts the role until the instant before its end, and not from it on, at every call', async () => {
    const person = await make.member(w.customer);
    const until = new Date(START.getTime() + 2 * DAY);
    const res = await assign(person, `&until=${until.toISOString()}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual(expect.objectContaining({ role: 'ISSUER', until: until.toISOString() }));
    // Asked at START, then at the edges.
    expect((await upload(person)).statusCode).toBe(400);
    t.clock.set(new Date(until.getTime() - 1));
    expect((await upload(person)).statusCode).toBe(400);
    t.clock.set(until);
    expect((await upload(person)).statusCode).toBe(403);
    t.clock.set(new Date(until.getTime() + 1));
    expect((await upload(person)).statusCode).toBe(403);
    // Its own MEMBER role still reads.
    expect((await t.call(person.email, { method: 'GET', url: customer() })).statusCode).toBe(200);
  });

  it('refuses an end in the past, now, or beyond 365 days, naming until, and changes nothing', async () => {
    const person = await make.member(w.customer);
    for (const until of [new Date(START.getTime() - 1).toISOString(), START.toISOString(), new Date(START.getTime() + 365 * DAY + 1).toISOString(), 'tomorrow']) {
      const res = await assign(person, `&until=${encodeURIComponent(until)}`);
      expect(res.statusCode, until).toBe(400);
      expect(res.json().field, until).toBe('until');
    }
    const list = (await t.call(w.partnerAdmin.email, { method: 'GET', url: roles(person) })).json();
    expect(list.map((r: { role: string }) => r.role)).toEqual(['MEMBER']);
    expect((await assign(person, `&until=${new Date(START.getTime() + 365 * DAY).toISOString()}`)).statusCode).toBe(200);
  });

  it('extends, shortens and makes standing through assign, ends early through unassign, each at the next call', async () => {
    const person = await make.member(w.customer);
    const end = (days: number) => new Date(START.getTime() + days * DAY).toISOString();
    expect((await assign(person, `&until=${end(1)}`)).statusCode).toBe(200);
    expect((await assign(person, `&until=${end(1)}`)).statusCode).toBe(409);
    expect((await assign(person, `&until=${end(3)}`)).statusCode).toBe(200);
    t.clock.set(end(2));
    expect((await upload(person)).statusCode).toBe(400);
    expect((await assign(person, '')).json()).toContainEqual(expect.objectContaining({ role: 'ISSUER', until: null }));
    t.clock.set(end(4));
    expect((await upload(person)).statusCode).toBe(400);
    const unassign = await t.call(w.partnerAdmin.email, { method: 'POST', url: `${roles(person)}/unassign?role=ISSUER` });
    expect(unassign.statusCode).toBe(200);
    expect((await upload(person)).statusCode).toBe(403);
    const messages = (await records('ROLE_ASSIGNED')).map((r) => r.message).filter((m) => m.includes(person.email));
    expect(messages).toEqual([
      `Assigned ISSUER (ORGANIZATION) until ${end(1)} to ${person.email}.`,
      `Changed the end of ISSUER of ${person.email} to ${end(3)}.`,
      `Made ISSUER of ${person.email} standing (it was to end ${end(3)}).`,
    ]);
  });

  it('tells the holder and the administrators 7 days and 1 day before, and journals the end once', async () => {
    const person = await make.member(w.customer);
    const admin = await make.member(w.customer, { role: 'ADMINISTRATOR' });
    const until = START.getTime() + 10 * DAY;
    expect((await assign(person, `&until=${new Date(until).toISOString()}`)).statusCode).toBe(200);
    await scanTime(t.db, START);
    await scanTime(t.db, new Date(until - 7 * DAY - 1));
    const expiring = () => t.db.selectFrom('events').select(['data']).where('event_type', '=', 'role.expiring').where('subject_id', '=', person.id).execute();
    expect(await expiring()).toHaveLength(0);
    await Promise.all([scanTime(t.db, new Date(until - 7 * DAY)), scanTime(t.db, new Date(until - 7 * DAY))]);
    expect(await expiring()).toHaveLength(1);
    await scanTime(t.db, new Date(until - DAY));
    expect((await expiring()).map((e) => JSON.parse(e.data).days)).toEqual([7, 1]);
    await scanTime(t.db, new Date(until - 1));
    // Other tests' roles of this database may have ended meanwhile: this person's only.
    expect((await records('ROLE_EXPIRED')).filter((r) => r.message.includes(person.email))).toHaveLength(0);
    await Promise.all([scanTime(t.db, new Date(until)), scanTime(t.db, new Date(until + 1)), scanTime(t.db, new Date(until + 1))]);
    const ended = (await records('ROLE_EXPIRED')).filter((r) => r.message.includes(person.email));
    expect(ended).toEqual([{ message: `ISSUER of ${person.email} ended as scheduled at ${formatUtcDateTime(until)}.`, member_email: null }]);
    const left = await t.db.selectFrom('role_assignments').select('role').where('member_id', '=', person.id).execute();
    expect(left.map((r) => r.role)).toEqual(['MEMBER']);
    await dispatchEvents(t.db, new Date(until + 1), OPTIONS);
    const notices = await t.db.selectFrom('notices').select(['member_id', 'event_type', 'title'])
      .where('event_type', 'in', ['role.expiring', 'role.expired']).where('organization_id', '=', w.customer.id).execute();
    // About this person's role (the administrator is told of other tests' roles of the organization too).
    const about = notices.filter((n) => n.title.includes(person.email));
    for (const who of [person.id, admin.id]) {
      expect(about.filter((n) => n.member_id === who).map((n) => n.event_type).sort(), who).toEqual(['role.expired', 'role.expiring', 'role.expiring']);
    }
  });

  it("tells an administrator whom the organization's rules name for the role's end once, by the organization's notice", async () => {
    const other = await make.organization({ parent: w.partner });
    const person = await make.member(other);
    const admin = await make.member(other, { role: 'ADMINISTRATOR' });
    const rules = { events: ['role.expiring', 'role.expired'], recipient_roles: ['ADMINISTRATOR'] };
    await t.db.insertInto('notification_settings').values({ organization_id: other.id, settings: JSON.stringify(rules), date_updated: START.toISOString() }).execute();
    const until = START.getTime() + 10 * DAY;
    const assigned = await t.call(w.partnerAdmin.email, { method: 'POST', url: `/api/organizations/${other.id}/members/${person.id}/roles/assign?role=ISSUER&scope=ORGANIZATION&until=${new Date(until).toISOString()}` });
    expect(assigned.statusCode).toBe(200);
    await scanTime(t.db, new Date(until - DAY - 1));
    await scanTime(t.db, new Date(until - DAY));
    await dispatchEvents(t.db, new Date(until - DAY), OPTIONS);
    const notices = await t.db.selectFrom('notices').select(['member_id', 'title']).where('event_type', '=', 'role.expiring').where('organization_id', '=', other.id).execute();
    // The holder by a notice of their own; the administrator, whom the rules name, by the organization's one only.
    expect(notices.map((n) => n.member_id).sort()).toEqual([null, person.id].sort());
    const bell = (await t.call(admin.email, { method: 'GET', url: '/api/notices' })).json();
    expect(bell.items.map((n: { title: string }) => n.title)).toEqual([notices[0].title]);
    expect(bell.unread).toBe(1);
    const journal = await t.db.selectFrom('audit_records').select('message').where('organization_id', '=', other.id).where('reason', '=', 'NOTICE_SENT').execute();
    expect(journal.map((r) => r.message)).toEqual([`Notified 2 members in the portal: ${notices[0].title}`]);
  });
});

describe.runIf(dialects.includes('postgres'))('time-boxed roles on two instances of one PostgreSQL', () => {
  const two = useTwoInstances((db, clock) => factories({ db, clock }).cooperation(), { clock: true });
  const { as, clock } = two;

  const url = () => `/api/organizations/${two.data.customer.id}`;
  const upload = async (app: FastifyInstance, email: string) =>
    (await app.inject({ method: 'POST', url: `${url()}/certificates`, headers: await as(email), payload: { certificate: 'not a certificate' } })).statusCode;

  it('ends the role at its instant on both, and an early end through one at the next call to the other', async () => {
    clock.set(START);
    const until = new Date(START.getTime() + DAY);
    const admin = await as(two.data.partnerAdmin.email);
    const res = await two.a.inject({ method: 'POST', url: `${url()}/members/${two.data.member.id}/roles/assign?role=ISSUER&scope=ORGANIZATION&until=${until.toISOString()}`, headers: admin });
    expect(res.statusCode).toBe(200);
    for (const app of [two.a, two.b]) expect(await upload(app, two.data.member.email)).toBe(400);
    clock.set(new Date(until.getTime() - 1));
    for (const app of [two.a, two.b]) expect(await upload(app, two.data.member.email)).toBe(400);
    clock.set(until);
    for (const app of [two.b, two.a]) expect(await upload(app, two.data.member.email)).toBe(403);
    clock.set(new Date(until.getTime() + 1));
    for (const app of [two.a, two.b]) expect(await upload(app, two.data.member.email)).toBe(403);
    // Ended early through B: A refuses at its next call.
    clock.set(START);
    const issuer = await factories({ db: two.database.db, clock }).member(two.data.customer);
    const grant = await two.b.inject({ method: 'POST', url: `${url()}/members/${issuer.id}/roles/assign?role=ISSUER&scope=ORGANIZATION&until=${until.toISOString()}`, headers: admin });
    expect(grant.statusCode).toBe(200);
    for (const app of [two.a, two.b]) expect(await upload(app, issuer.email)).toBe(400);
    expect((await two.b.inject({ method: 'POST', url: `${url()}/members/${issuer.id}/roles/unassign?role=ISSUER`, headers: admin })).statusCode).toBe(200);
    for (const app of [two.a, two.b]) expect(await upload(app, issuer.email)).toBe(403);
  });

  it('journals a scheduled end once when both instances scan at once', async () => {
    clock.set(START);
    const person = await factories({ db: two.database.db, clock }).member(two.data.customer);
    const until = START.getTime() + 2 * DAY;
    const admin = await as(two.data.partnerAdmin.email);
    const res = await two.a.inject({ method: 'POST', url: `${url()}/members/${person.id}/roles/assign?role=ISSUER&scope=ORGANIZATION&until=${new Date(until).toISOString()}`, headers: admin });
    expect(res.statusCode).toBe(200);
    await scanTime(two.database.db, START);
    await Promise.all([scanTime(two.database.db, new Date(until)), scanTime(two.second, new Date(until)), scanTime(two.second, new Date(until + 1))]);
    const ended = await two.database.db.selectFrom('audit_records').select('message').where('reason', '=', 'ROLE_EXPIRED')
      .where('message', 'like', `%${person.email}%`).execute();
    expect(ended).toHaveLength(1);
    const events = await two.database.db.selectFrom('events').select('event_id').where('event_type', '=', 'role.expired').where('subject_id', '=', person.id).execute();
    expect(events).toHaveLength(1);
  });
});
