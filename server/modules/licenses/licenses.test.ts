import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { START } from '../../../test/support/tokens';
import { factories, uniqueTag, type Cooperation, type Org } from '../../../test/support/factories';
import { licenseStatus, startOfUtcDay } from '../../../common/status';
import type { License } from '../../../common/schemas/license';

const dialects = await testDialects();
const DAY = 86_400_000;

/**
 * The people of the factories' cooperation (test/support/factories.ts), by what they are to the
 * customer whose licenses the tests act on.
 */
const PEOPLE = {
  ISSUER_C: 'issuer', // ISSUER, own organization
  MEMBER_C: 'member', // MEMBER, own organization
  ADMIN_N: 'partnerAdmin', // ADMINISTRATOR of the partner, which manages the customer
  ISSUER_N: 'partnerIssuer', // ISSUER of the partner, ORGANIZATION scope: unrelated to the customer
  APPROVER: 'approver',
  SUPERVISOR: 'supervisor',
  DEVOPS: 'devops',
} as const;
type Who = keyof typeof PEOPLE;
const EVERYONE = Object.keys(PEOPLE) as Who[];
const READERS = EVERYONE.filter((e) => e !== 'ISSUER_N');

type State = 'requested' | 'approved' | 'expired';

describe.each(dialects)('licenses API on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The people who act, and the customer whose licenses they act on; lists are read in organizations of their own. */
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const email = (who: Who) => w[PEOPLE[who]].email;
  const [ISSUER_C, ISSUER_N, APPROVER, SUPERVISOR] = (['ISSUER_C', 'ISSUER_N', 'APPROVER', 'SUPERVISOR'] as const).map((who) => () => email(who));
  const base = (org: Org = w.customer) => `/api/organizations/${org.id}/licenses`;
  let serial = 0;
  // Zero-padded, so that no name is the start of another one (the journal is searched by name).
  const fresh = (prefix = 'License') => `${prefix} ${dialect} ${String(++serial).padStart(4, '0')}`;
  const now = () => t.clock.now().getTime();

  async function request(body: Record<string, unknown>, as = SUPERVISOR(), org?: Org) {
    return t.call(as, { method: 'POST', url: base(org), payload: body });
  }
  async function read(id: string): Promise<License> {
    return (await t.call(SUPERVISOR(), { method: 'GET', url: `/api/licenses/${id}` })).json();
  }
  const act = (as: string | null, id: string, action: string, version: number) =>
    t.call(as, { method: 'POST', url: `/api/licenses/${id}/${action}?version=${version}` });
  const approve = (as: string | null, l: License, edits: Record<string, unknown> = {}) =>
    t.call(as, { method: 'POST', url: `/api/licenses/${l.license_id}/approve`, payload: { ...l, ...edits } });

  /** A license of the customer (or `org`) in the given state, made through the API. */
  async function license(state: State, name = fresh(), org?: Org): Promise<License> {
    // Expired: a window that ended ten days ago.
    const from = state === 'expired' ? new Date(now() - 30 * DAY).toISOString() : undefined;
    const created = await request({ license_name: name, days_valid: 20, ...(from && { date_valid_from: from }) }, SUPERVISOR(), org);
    expect(created.statusCode).toBe(201);
    if (state === 'requested') return created.json();
    const approved = await approve(SUPERVISOR(), created.json());
    expect(approved.statusCode).toBe(200);
    return approved.json();
  }

  const reasonsFor = async (name: string) =>
    (await t.db.selectFrom('audit_records').select(['reason', 'message']).orderBy('record_id').execute())
      .filter((r) => r.message.includes(name))
      .map((r) => r.reason);

  describe('who may act where (every call × role × own, managed and unrelated organization)', () => {
    interface Call {
      name: string;
      state: State | null;
      allowed: Who[];
      ok: number;
      run(as: string | null, license?: License): Promise<{ statusCode: number }>;
    }
    const CALLS: Call[] = [
      { name: 'list', state: null, allowed: READERS, ok: 200, run: (as) => t.call(as, { method: 'GET', url: base() }) },
      { name: 'request', state: null, allowed: ['ISSUER_C', 'SUPERVISOR', 'APPROVER'], ok: 201, run: (as) => request({ license_name: fresh('Matrix') }, as as string) },
      { name: 'details', state: 'requested', allowed: READERS, ok: 200, run: (as, l) => t.call(as, { method: 'GET', url: `/api/licenses/${l!.license_id}` }) },
      { name: 'approve', state: 'requested', allowed: ['APPROVER', 'SUPERVISOR'], ok: 200, run: (as, l) => approve(as, l!) },
      { name: 'reject', state: 'requested', allowed: ['APPROVER', 'SUPERVISOR'], ok: 200, run: (as, l) => act(as, l!.license_id, 'reject', l!.version) },
      { name: 'renew', state: 'expired', allowed: ['SUPERVISOR', 'ISSUER_C'], ok: 201, run: (as, l) => act(as, l!.license_id, 'renew', l!.version) },
      {
        name: 'acknowledge-expiry', state: 'expired', allowed: ['SUPERVISOR', 'ISSUER_C', 'APPROVER'], ok: 200,
        run: (as, l) => act(as, l!.license_id, 'acknowledge-expiry', l!.version),
      },
    ];

    for (const call of CALLS) {
      for (const who of [...EVERYONE, null]) {
        const expected = who === null ? 401 : call.allowed.includes(who) ? call.ok : who === 'ISSUER_N' ? 404 : 403;
        it(`${call.name} as ${who ?? 'nobody'} → ${expected}`, async () => {
          const made = call.state ? await license(call.state) : undefined;
          const res = await call.run(who && email(who), made);
          expect(res.statusCode).toBe(expected);
          // A refused change changes nothing.
          if (made && expected >= 400) expect((await read(made.license_id)).version).toBe(made.version);
        });
      }
    }

    it('treats a license of another tenant as missing, and an unknown id as missing', async () => {
      const l = await license('requested');
      expect((await t.call(ISSUER_N(), { method: 'GET', url: `/api/licenses/${l.license_id}` })).json().message).toBe('License not found.');
      for (const [method, url] of [['GET', '/api/licenses/nope'], ['POST', '/api/licenses/nope/reject?version=1'], ['GET', '/api/licenses/nope/license-key']] as const) {
        expect((await t.call(SUPERVISOR(), { method, url })).statusCode, url).toBe(404);
      }
      // The partner's issuer lists the partner's own licenses, and none of the customer's.
      await license('requested', fresh('Partner'), w.partner);
      const admin = await t.call(ISSUER_N(), { method: 'GET', url: '/api/licenses?limit=1000' });
      expect(new Set((admin.json() as License[]).map((x) => x.organization_name))).toEqual(new Set([w.partner.name]));
    });
  });

  describe('request', () => {
    it('applies the defaults of SPEC.md §5 and answers the whole license; the journal records it', async () => {
      const name = fresh('Defaults');
      const res = await request({ license_name: `  ${name} ` }, ISSUER_C());
      expect(res.statusCode).toBe(201);
      const from = startOfUtcDay(t.clock.now()).toISOString();
      expect(res.json()).toEqual({
        license_id: expect.any(String), license_name: name, license_scope: 'EVALUATION', date_valid_from: from, days_valid: 20,
        date_valid_until: new Date(Date.parse(from) + 20 * DAY).toISOString(), time_zone: 'UTC', note: null, date_approved: null, date_rejected: null,
        date_expiry_acknowledged: null, days_left: 20, version: 1, organization_id: w.customer.id, organization_name: w.customer.name,
        date_created: t.clock.now().toISOString(), extended_by: null, abilities: ['license.renew', 'license.acknowledgeExpiry'],
      });
      const record = await t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'LICENSE_REQUESTED').where('message', 'like', `%${name}%`).executeTakeFirstOrThrow();
      expect(record).toMatchObject({ organization_id: w.customer.id, member_email: ISSUER_C() });
    });

    it('without a zone, keeps the instant a client sends for its local midnight and counts days of 24 hours (UTC) from it', async () => {
      // 20-MAR-2026 00:00 in Berlin; the window crosses the change to summer time on 29-MAR.
      const res = await request({ license_name: fresh('Berlin'), license_scope: 'LAB', date_valid_from: '2026-03-19T23:00:00.000Z', days_valid: 10, note: ' lab ' });
      expect(res.json()).toMatchObject({ license_scope: 'LAB', date_valid_from: '2026-03-19T23:00:00.000Z', date_valid_until: '2026-03-29T23:00:00.000Z', note: 'lab' });
      const plain = await request({ license_name: fresh('Plain date'), date_valid_from: '2026-02-28', days_valid: 1 });
      expect(plain.json()).toMatchObject({ date_valid_from: '2026-02-28T00:00:00.000Z', date_valid_until: '2026-03-01T00:00:00.000Z' });
    });

    it('refuses bad input with 400 naming the field, and stores nothing', async () => {
      const count = async () => Number((await t.db.selectFrom('licenses').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const before = await count();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'license_name'],
        [{ license_name: '   ' }, 'license_name'],
        [{ license_name: 'x'.repeat(201) }, 'license_name'],
        [{ license_name: 'ok', license_scope: 'GOLD' }, 'license_scope'],
        [{ license_name: 'ok', license_scope: 'evaluation' }, 'license_scope'],
        [{ license_name: 'ok', days_valid: 0 }, 'days_valid'],
        [{ license_name: 'ok', days_valid: 3651 }, 'days_valid'],
        [{ license_name: 'ok', days_valid: 1.5 }, 'days_valid'],
        [{ license_name: 'ok', days_valid: '20' }, 'days_valid'],
        [{ license_name: 'ok', date_valid_from: '2026-02-30' }, 'date_valid_from'],
        [{ license_name: 'ok', date_valid_from: '2026-13-01T00:00:00Z' }, 'date_valid_from'],
        [{ license_name: 'ok', date_valid_from: '05-MAR-2026' }, 'date_valid_from'],
        [{ license_name: 'ok', date_valid_from: 'tomorrow' }, 'date_valid_from'],
        [{ license_name: 'ok', date_valid_from: '1999-12-31' }, 'date_valid_from'],
        // Spaces around a date are forgiven; a control character is refused, not trimmed away with them.
        [{ license_name: 'ok', date_valid_from: '\r2026-04-01' }, 'date_valid_from'],
        [{ license_name: 'ok', date_valid_from: '2026-04-01\u000b' }, 'date_valid_from'],
        [{ license_name: 'ok', note: 'n'.repeat(2001) }, 'note'],
      ];
      for (const [body, field] of cases) {
        const res = await request(body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.json().field).toBe(field);
      }
      expect((await request({ license_name: fresh('ok'), days_valid: 3650 })).statusCode).toBe(201);
      expect((await request({ license_name: fresh('ok'), days_valid: 1 })).statusCode).toBe(201);
      expect((await request({ license_name: fresh('ok'), date_valid_from: ' 2026-04-01 ' })).json().date_valid_from).toBe('2026-04-01T00:00:00.000Z');
      expect(await count()).toBe(before + 3);
    });

    it('answers 409 to a name already used, in any letter case and any organization', async () => {
      const name = fresh('Unique');
      await request({ license_name: name });
      for (const again of [name, name.toUpperCase()]) {
        const res = await request({ license_name: again });
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toContain('already exists');
      }
      const northwind = await t.call(SUPERVISOR(), { method: 'POST', url: base(w.partner), payload: { license_name: name } });
      expect(northwind.statusCode).toBe(409);
    });
  });

  describe('approve and reject', () => {
    it('applies the fields edited before approval, counts the version, and refuses a second approval', async () => {
      const l = await license('requested');
      const name = fresh('Edited');
      const res = await approve(APPROVER(), l, { license_name: name, license_scope: 'PRODUCTION', date_valid_from: '2026-04-01', days_valid: 30, note: 'corrected', days_left: 999 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        license_name: name, license_scope: 'PRODUCTION', date_valid_from: '2026-04-01T00:00:00.000Z', days_valid: 30,
        date_valid_until: '2026-05-01T00:00:00.000Z', note: 'corrected', date_approved: t.clock.now().toISOString(), version: 2,
      });
      expect(licenseStatus(res.json(), t.clock.now()).badges).toEqual(['APPROVED']);
      const stale = await approve(APPROVER(), l);
      expect(stale.statusCode).toBe(409);
      expect(stale.json().message).toMatch(/changed meanwhile/);
      const again = await approve(APPROVER(), res.json());
      expect(again.json().message).toBe('The license is already approved.');
      expect((await act(APPROVER(), l.license_id, 'reject', 2)).json().message).toBe('The license is already approved.');
      const messages = (await t.db.selectFrom('audit_records').select('message').where('reason', '=', 'LICENSE_APPROVED').execute()).map((r) => r.message);
      expect(messages).toContain(`Approved license ${name} (changed before approval: name, scope, valid from, days valid, note).`);
    });

    it('refuses an approval that would rename onto a taken name or carries bad fields, and changes nothing', async () => {
      const taken = await license('requested');
      const l = await license('requested');
      expect((await approve(APPROVER(), l, { license_name: taken.license_name.toLowerCase() })).statusCode).toBe(409);
      for (const [edits, field] of [[{ days_valid: -1 }, 'days_valid'], [{ version: undefined }, 'version'], [{ date_valid_from: '2026-02-29' }, 'date_valid_from']] as const) {
        const res = await approve(APPROVER(), l, edits);
        expect(res.statusCode).toBe(400);
        expect(res.json().field).toBe(field);
      }
      expect(await read(l.license_id)).toEqual(l);
    });

    it('rejects with the current version only; a rejected license is final', async () => {
      const l = await license('requested');
      const stale = await act(APPROVER(), l.license_id, 'reject', l.version + 5);
      expect(stale.statusCode).toBe(409);
      expect(await read(l.license_id)).toEqual(l);
      expect(await reasonsFor(l.license_name)).toEqual(['LICENSE_REQUESTED']);
      const missing = await t.call(APPROVER(), { method: 'POST', url: `/api/licenses/${l.license_id}/reject` });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().field).toBe('version');

      const rejected = await act(APPROVER(), l.license_id, 'reject', l.version);
      expect(rejected.statusCode).toBe(200);
      expect(rejected.json()).toMatchObject({ date_rejected: t.clock.now().toISOString(), version: 2 });
      expect(licenseStatus(rejected.json(), t.clock.now()).badges).toEqual(['REJECTED']);
      expect((await approve(APPROVER(), rejected.json())).json().message).toBe('A rejected license cannot be approved.');
      expect((await act(APPROVER(), l.license_id, 'reject', 2)).json().message).toBe('The license is already rejected.');
      expect((await act(SUPERVISOR(), l.license_id, 'renew', 2)).statusCode).toBe(409);
      expect(await reasonsFor(l.license_name)).toEqual(['LICENSE_REQUESTED', 'LICENSE_REJECTED']);
    });

    it('lets exactly one of two racing approvals win', async () => {
      for (let round = 0; round < 3; round++) {
        const l = await license('requested');
        const results = await Promise.all([approve(APPROVER(), l), approve(SUPERVISOR(), l, { note: 'the other one' })]);
        expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
        expect((await read(l.license_id)).version).toBe(2);
        expect(await reasonsFor(l.license_name)).toEqual(['LICENSE_REQUESTED', 'LICENSE_APPROVED']);
      }
      const expired = await license('expired');
      const [renew, acknowledge] = await Promise.all([act(ISSUER_C(), expired.license_id, 'renew', expired.version), act(ISSUER_C(), expired.license_id, 'acknowledge-expiry', expired.version)]);
      expect([renew.statusCode, acknowledge.statusCode].filter((s) => s === 409)).toHaveLength(1);
    });
  });

  describe('expiry, renewal and "No renew"', () => {
    it('renews in the last days, shows Extension requested, then Extended once the successor is approved', async () => {
      try {
        const l = await license('approved', fresh('Gateway'));
        expect((await act(ISSUER_C(), l.license_id, 'renew', l.version)).json().message).toMatch(/last 7 days or once it has expired/);
        expect((await act(ISSUER_C(), l.license_id, 'acknowledge-expiry', l.version)).json().message).toBe('The license has not expired yet.');

        t.clock.advanceDays(14); // 6 days left
        const renewed = await act(ISSUER_C(), l.license_id, 'renew', l.version);
        expect(renewed.statusCode).toBe(201);
        const successor: License = renewed.json();
        expect(successor).toMatchObject({
          license_name: `${l.license_name} (renewal 1)`, license_scope: l.license_scope, days_valid: l.days_valid,
          date_valid_from: startOfUtcDay(t.clock.now()).toISOString(), date_approved: null, version: 1,
          organization_id: w.customer.id, note: `Renewal of ${l.license_name}.`,
        });
        let original = await read(l.license_id);
        expect(original.version).toBe(l.version + 1);
        expect(original.extended_by).toEqual({
          license_id: successor.license_id, license_name: successor.license_name, date_valid_from: successor.date_valid_from,
          date_valid_until: successor.date_valid_until, date_approved: null,
        });
        expect(licenseStatus(original, t.clock.now()).badges).toEqual(['VALID', 'EXTENSION_REQUESTED']);
        expect((await act(ISSUER_C(), l.license_id, 'renew', original.version)).json().message).toBe('A renewal of this license is already waiting for approval.');

        const pending = async (path: string) => ((await t.call(SUPERVISOR(), { method: 'GET', url: `${path}?limit=1000` })).json().licenses as License[]).map((x) => x.license_id);
        expect(await pending('/api/approve')).toContain(successor.license_id);
        t.clock.advanceDays(7); // the original has expired, but its renewal is on its way
        expect(await pending('/api/acknowledge')).not.toContain(l.license_id);

        // A rejected renewal extends nothing: the original is open for Renew or 'No renew' again.
        await act(APPROVER(), successor.license_id, 'reject', 1);
        original = await read(l.license_id);
        expect(original.extended_by).toBeNull();
        expect(await pending('/api/acknowledge')).toContain(l.license_id);
        const second: License = (await act(SUPERVISOR(), l.license_id, 'renew', original.version)).json();
        expect(second.license_name).toBe(`${l.license_name} (renewal 2)`);
        await approve(APPROVER(), second);
        original = await read(l.license_id);
        expect(original.extended_by?.date_approved).toBe(t.clock.now().toISOString());
        expect(licenseStatus(original, t.clock.now()).badges).toEqual(['EXPIRED', 'EXTENDED']);
        expect((await act(ISSUER_C(), l.license_id, 'acknowledge-expiry', original.version)).json().message).toBe('The license is already extended.');

        // A renewal of a renewal counts on from the original name.
        t.clock.advanceDays(20);
        const third: License = (await act(ISSUER_C(), second.license_id, 'renew', 2)).json();
        expect(third.license_name).toBe(`${l.license_name} (renewal 3)`);
        // The successors' names contain the original's, so the journal shows the whole story.
        expect(await reasonsFor(l.license_name)).toEqual([
          'LICENSE_REQUESTED', 'LICENSE_APPROVED', 'LICENSE_RENEWED', 'LICENSE_REJECTED', 'LICENSE_RENEWED', 'LICENSE_APPROVED', 'LICENSE_RENEWED',
        ]);
      } finally {
        t.clock.set(START);
      }
    });

    it("acknowledges an expired license ('No renew'), which closes it for renewal", async () => {
      const l = await license('expired');
      expect(licenseStatus(l, t.clock.now()).badges).toEqual(['EXPIRED']);
      const acknowledge = (await t.call(SUPERVISOR(), { method: 'GET', url: '/api/acknowledge?limit=1000' })).json().licenses as License[];
      expect(acknowledge.map((x) => x.license_id)).toContain(l.license_id);
      const res = await act(APPROVER(), l.license_id, 'acknowledge-expiry', l.version);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ date_expiry_acknowledged: t.clock.now().toISOString(), version: l.version + 1 });
      expect(licenseStatus(res.json(), t.clock.now()).badges).toEqual(['EXPIRED', 'EXPIRY_ACKNOWLEDGED']);
      expect((await act(ISSUER_C(), l.license_id, 'renew', l.version + 1)).json().message).toBe('The expiry of this license is already acknowledged.');
      expect((await act(ISSUER_C(), l.license_id, 'acknowledge-expiry', l.version + 1)).json().message).toBe('The expiry of this license is already acknowledged.');
      const after = (await t.call(SUPERVISOR(), { method: 'GET', url: '/api/acknowledge?limit=1000' })).json().licenses as License[];
      expect(after.map((x) => x.license_id)).not.toContain(l.license_id);
      expect((await act(ISSUER_C(), (await license('requested')).license_id, 'acknowledge-expiry', 1)).json().message).toMatch(/Only an approved license/);
    });
  });

  describe('lists and pending tasks', () => {
    /** A customer of the partner of its own, read by a member of it: its lists hold this test's licenses only. */
    async function customer() {
      const org = await make.organization({ parent: w.partner });
      return { org, member: await make.member(org) };
    }
    const names = async (as: string, url: string, query: string) => {
      const res = await t.call(as, { method: 'GET', url: `${url}${query}` });
      expect(res.statusCode).toBe(200);
      return (res.json() as License[]).map((l) => l.license_name);
    };

    it('filters by name, case-insensitively, and by the three toggles', async () => {
      const c = await customer();
      const prefix = `Filtered ${uniqueTag()}`;
      const requested = await license('requested', `${prefix} request`, c.org);
      const valid = await license('approved', `${prefix} valid`, c.org);
      const expired = await license('expired', `${prefix} expired`, c.org);
      const rejected = await license('requested', `${prefix} rejected`, c.org);
      await act(APPROVER(), rejected.license_id, 'reject', 1);
      await license('approved', fresh('Unfiltered'), c.org);
      const list = (query: string) => names(c.member.email, base(c.org), query);
      const all = [expired, rejected, requested, valid].map((l) => l.license_name);
      const name = encodeURIComponent(prefix.toUpperCase());
      const lower = encodeURIComponent(prefix.toLowerCase());
      expect(await list(`?name=${name}`)).toEqual(all);
      expect(await list(`?name=${lower}&hideExpired=true`)).toEqual(all.filter((n) => n !== expired.license_name));
      expect(await list(`?name=${lower}&hideRequests=1`)).toEqual(all.filter((n) => n !== requested.license_name));
      expect(await list(`?name=${lower}&hideValid=true`)).toEqual(all.filter((n) => n !== valid.license_name));
      expect(await list(`?name=${lower}&hideExpired=true&hideRequests=true&hideValid=true`)).toEqual([rejected.license_name]);
      expect(await list('?name=100%25')).toEqual([]);
    });

    it('pages and tells the total; the admin list names the organization', async () => {
      const c = await customer();
      for (const state of ['requested', 'approved', 'expired', 'approved', 'requested'] as const) await license(state, fresh(), c.org);
      const res = await t.call(c.member.email, { method: 'GET', url: `${base(c.org)}?limit=2&offset=1` });
      expect(res.json()).toHaveLength(2);
      expect(Number(res.headers['x-total-count'])).toBe(5);
      expect((await t.call(c.member.email, { method: 'GET', url: `${base(c.org)}?limit=0` })).statusCode).toBe(400);
      const tag = uniqueTag();
      await license('approved', `Partner licence ${tag}`, w.partner);
      const admin = await t.call(SUPERVISOR(), { method: 'GET', url: `/api/licenses?name=${encodeURIComponent(`licence ${tag}`)}` });
      expect((admin.json() as License[]).map((l) => l.organization_name)).toEqual([w.partner.name]);
    });

    it('lists pending approvals and acknowledgements of the readable organizations only', async () => {
      // A partner of its own, read by its issuer: one request waits there, nothing expired.
      const partner = await make.organization({ role: 'PARTNER', parent: w.operator });
      const issuer = await make.member(partner, { role: 'ISSUER' });
      const evaluation = await make.license(partner, 'requested', { name: `Partner Evaluation ${uniqueTag()}` });
      await make.license(partner, 'approved');
      const approvals = (await t.call(issuer.email, { method: 'GET', url: '/api/approve' })).json().licenses as License[];
      expect(approvals.map((l) => l.license_name)).toEqual([evaluation.name]);
      expect((await t.call(issuer.email, { method: 'GET', url: '/api/acknowledge' })).json().licenses).toEqual([]);
      // A customer with an expired license, and an expired one whose renewal waits for approval.
      const c = await customer();
      const lab = await make.license(c.org, 'expired', { name: `Customer Lab ${uniqueTag()}` });
      const renewed = await make.license(c.org, 'extension-requested', { name: `Customer Test ${uniqueTag()}`, from: -200, days: 180 });
      const acknowledge = ((await t.call(c.member.email, { method: 'GET', url: '/api/acknowledge' })).json().licenses as License[]).map((l) => l.license_name);
      expect(acknowledge).toEqual([lab.name]);
      expect(acknowledge).not.toContain(renewed.name); // its renewal waits for approval
      expect((await read(renewed.id)).extended_by).toMatchObject({ license_id: renewed.successor, date_approved: null });
    });
  });
});

/** The demo seed is the subject here: what a first run shows. */
describe.each(dialects)('demo licenses on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('seeds demo licenses in every state across Contoso and Northwind', async () => {
    const all = (await t.call('supervisor@operator.example', { method: 'GET', url: '/api/licenses?limit=1000' })).json() as License[];
    const demo = all.filter((l) => /^(Contoso|Northwind) /.test(l.license_name));
    expect(demo).toHaveLength(all.length);
    const badges = new Set(demo.flatMap((l) => licenseStatus(l, new Date(START)).badges));
    expect([...badges].sort()).toEqual(['APPROVED', 'EXPIRED', 'EXPIRY_ACKNOWLEDGED', 'EXTENDED', 'EXTENSION_REQUESTED', 'NOT_APPROVED', 'REJECTED', 'VALID']);
    expect(new Set(demo.map((l) => l.organization_name))).toEqual(new Set(['Contoso', 'Northwind Networks']));
  });
});
