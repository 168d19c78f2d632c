/**
 * Organization API keys (issue 32) on both engines: creation, use as a member of the organization, the journal's
 * actor, revocation (next call 401, also on a second instance), expiry at t-1 ms / t / t+1 ms, what stops a key
 * (bans, the creator's rights), bad input (nothing stored), the per-key limit across instances, the secret never
 * in the log.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { makeCertificate } from '../../../scripts/make-certificate';
import { testDialects } from '../../../test/support/databases';
import { factories, uniqueTag, type Org, type Person } from '../../../test/support/factories';
import { useTestApp, type TestApp } from '../../../test/support/test-app';
import { TEST_CONFIG } from '../../../test/support/tokens';
import { scanTime } from '../notifications/scan';

const dialects = await testDialects();
const DAY = 86_400_000;
const ENV = { NODE_ENV: 'test', PORT: '8080', PUBLIC_URL: 'http://localhost:8080' };

/** A customer with an administrator, an issuer, and a key maker. */
function keys(t: TestApp) {
  const make = factories(t);
  async function customer() {
    const org = await make.organization();
    return { org, admin: await make.member(org, { role: 'ADMINISTRATOR' }), issuer: await make.member(org, { role: 'ISSUER' }) };
  }
  const base = (org: Org) => `/api/organizations/${org.id}/api-keys`;
  const body = (over: Record<string, unknown> = {}) => ({
    name: `ci-${uniqueTag()}`, roles: [{ role: 'ISSUER', scope: 'ORGANIZATION' }],
    date_expires: new Date(t.clock.now().getTime() + 30 * DAY).toISOString(), ...over,
  });
  const create = (org: Org, as: Person, over: Record<string, unknown> = {}) => t.call(as.email, { method: 'POST', url: base(org), payload: body(over) });
  async function key(org: Org, as: Person, over: Record<string, unknown> = {}) {
    const res = await create(org, as, over);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { api_key_id: string; name: string; secret: string; date_expires: string };
  }
  const use = (secret: string, url: string, app: FastifyInstance = t.app, method: 'GET' | 'POST' = 'GET', payload?: object) =>
    app.inject({ method, url, payload, headers: { authorization: `Bearer ${secret}` } });
  async function upload(org: Org, secret: string, app?: FastifyInstance) {
    const now = t.clock.now().getTime();
    const { pem } = await makeCertificate({ subject: `CN=gw-${uniqueTag()}.example`, notBefore: new Date(now - DAY), notAfter: new Date(now + 30 * DAY) });
    return use(secret, `/api/organizations/${org.id}/certificates`, app, 'POST', { description: 'from CI', certificate: pem });
  }
  const count = async () => Number((await t.db.selectFrom('api_keys').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { make, customer, base, body, create, key, use, upload, count };
}

describe.each(dialects)('API keys on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const k = keys(t);

  it('creates a key whose secret is shown once, stored as its hash only, and journaled', async () => {
    const c = await k.customer();
    const created = await k.key(c.org, c.admin, { read_only: true });
    expect(created.secret).toMatch(/^cpk_[0-9A-Za-z]{49}$/);
    const row = await t.db.selectFrom('api_keys').selectAll().where('api_key_id', '=', created.api_key_id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secret);
    const list = await t.call(c.admin.email, { method: 'GET', url: k.base(c.org) });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.json().items).toEqual([expect.objectContaining({
      name: created.name, read_only: true, roles: [{ role: 'ISSUER', scope: 'ORGANIZATION' }], created_by: { name: c.admin.name, email: c.admin.email },
      date_last_used: null, date_revoked: null,
    })]);
    const records = await t.db.selectFrom('audit_records').select(['message', 'member_email']).where('organization_id', '=', c.org.id).where('reason', '=', 'API_KEY_CREATED').execute();
    expect(records).toEqual([{ member_email: c.admin.email, message: expect.stringContaining(`'${created.name}'`) }]);
    expect(JSON.stringify(await t.db.selectFrom('audit_records').selectAll().execute())).not.toContain(created.secret);
  });

  it('acts as a member of its organization with its roles; the journal names the key and its creator', async () => {
    const c = await k.customer();
    const created = await k.key(c.org, c.admin);
    const res = await k.upload(c.org, created.secret);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().owner.name).toBe(c.admin.name);
    const [record] = await t.db.selectFrom('audit_records').select(['message', 'member_email']).where('organization_id', '=', c.org.id).where('reason', '=', 'CERTIFICATE_UPLOADED').execute();
    expect(record.member_email).toBe(c.admin.email);
    expect(record.message).toMatch(new RegExp(`^API key '${created.name}' of ${c.org.name} \\(created by ${c.admin.email.replace(/\./g, '\\.')}\\): Uploaded certificate`));
    // Its roles, not its creator's: an ISSUER key manages no members and sees no other organization.
    expect((await k.use(created.secret, `/api/organizations/${c.org.id}/members/${c.issuer.id}/ban`, t.app, 'POST', {})).statusCode).toBe(403);
    const other = await k.customer();
    expect((await k.use(created.secret, `/api/organizations/${other.org.id}/certificates`)).statusCode).toBe(404);
    // No key manages keys, whatever its roles.
    const admin = await k.key(c.org, c.admin, { roles: [{ role: 'ADMINISTRATOR', scope: 'ORGANIZATION' }] });
    expect((await k.use(admin.secret, k.base(c.org))).statusCode).toBe(403);
  });

  it('a read-only key reads and changes nothing', async () => {
    const c = await k.customer();
    const created = await k.key(c.org, c.admin, { read_only: true });
    expect((await k.use(created.secret, `/api/organizations/${c.org.id}/certificates`)).statusCode).toBe(200);
    expect((await k.upload(c.org, created.secret)).statusCode).toBe(403);
    expect(Number((await t.db.selectFrom('certificates').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', c.org.id).executeTakeFirstOrThrow()).n)).toBe(0);
  });

  it('a revoked key gets 401 at its very next call, on this instance and on another one', async () => {
    const c = await k.customer();
    const created = await k.key(c.org, c.admin);
    const other = await buildApp({ config: TEST_CONFIG, db: t.db, now: t.clock.now, logger: false });
    try {
      const url = `/api/organizations/${c.org.id}/certificates`;
      expect((await k.use(created.secret, url)).statusCode).toBe(200);
      expect((await k.use(created.secret, url, other)).statusCode).toBe(200);
      const revoked = await t.call(c.admin.email, { method: 'DELETE', url: `${k.base(c.org)}/${created.api_key_id}` });
      expect(revoked.statusCode).toBe(204);
      expect((await k.use(created.secret, url)).statusCode).toBe(401);
      const there = await k.use(created.secret, url, other);
      expect(there.statusCode).toBe(401);
      expect(there.json().message).toContain('revoked');
      // Kept in the list as revoked; a second revocation is a conflict.
      const list = await t.call(c.admin.email, { method: 'GET', url: k.base(c.org) });
      expect(list.json().items[0].date_revoked).toBe(t.clock.now().toISOString());
      expect((await t.call(c.admin.email, { method: 'DELETE', url: `${k.base(c.org)}/${created.api_key_id}` })).statusCode).toBe(409);
      expect((await t.db.selectFrom('audit_records').select('reason').where('organization_id', '=', c.org.id).where('reason', '=', 'API_KEY_REVOKED').execute()).length).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('an expired key is refused at its instant: t-1 ms accepted, t and t+1 ms refused', async () => {
    const c = await k.customer();
    const expires = new Date(t.clock.now().getTime() + 7 * DAY);
    const created = await k.key(c.org, c.admin, { date_expires: expires.toISOString() });
    const url = `/api/organizations/${c.org.id}/certificates`;
    const at = async (ms: number) => {
      t.clock.set(new Date(expires.getTime() + ms));
      return (await k.use(created.secret, url)).statusCode;
    };
    expect(await at(-1)).toBe(200);
    expect(await at(0)).toBe(401);
    expect(await at(1)).toBe(401);
  });

  it('notes when and from where it was last used, at most once a minute', async () => {
    const c = await k.customer();
    const created = await k.key(c.org, c.admin);
    const url = `/api/organizations/${c.org.id}/certificates`;
    const lastUsed = async () => (await t.db.selectFrom('api_keys').select(['date_last_used', 'last_used_from']).where('api_key_id', '=', created.api_key_id).executeTakeFirstOrThrow());
    const first = t.clock.now().toISOString();
    await k.use(created.secret, url);
    expect(await lastUsed()).toEqual({ date_last_used: first, last_used_from: '127.0.0.1' });
    t.clock.set(new Date(t.clock.now().getTime() + 59_999));
    await k.use(created.secret, url);
    expect((await lastUsed()).date_last_used).toBe(first);
    t.clock.set(new Date(t.clock.now().getTime() + 1));
    await k.use(created.secret, url);
    expect((await lastUsed()).date_last_used).toBe(t.clock.now().toISOString());
  });

  it('stops as its creator would: banned organization, banned creator, creator no longer able to grant its roles', async () => {
    const url = (org: Org) => `/api/organizations/${org.id}/certificates`;
    const a = await k.customer();
    const inBanned = await k.key(a.org, a.admin);
    await t.db.updateTable('organizations').set({ date_organization_banned: t.clock.now().toISOString(), ban_note: 'x' }).where('organization_id', '=', a.org.id).execute();
    expect((await k.use(inBanned.secret, url(a.org))).statusCode).toBe(403);

    const b = await k.customer();
    const second = await k.make.member(b.org, { role: 'ADMINISTRATOR' });
    const byBanned = await k.key(b.org, b.admin);
    expect((await k.use(byBanned.secret, url(b.org))).statusCode).toBe(200);
    expect((await t.call(second.email, { method: 'POST', url: `/api/organizations/${b.org.id}/members/${b.admin.id}/ban`, payload: { ban_note: 'left' } })).statusCode).toBe(200);
    expect((await k.use(byBanned.secret, url(b.org))).statusCode).toBe(403);

    const c = await k.customer();
    const other = await k.make.member(c.org, { role: 'ADMINISTRATOR' });
    const reduced = await k.key(c.org, c.admin);
    expect((await k.use(reduced.secret, url(c.org))).statusCode).toBe(200);
    const taken = await t.call(other.email, { method: 'POST', url: `/api/organizations/${c.org.id}/members/${c.admin.id}/roles/unassign?role=ADMINISTRATOR&scope=ORGANIZATION` });
    expect(taken.statusCode, taken.body).toBe(200);
    const refused = await k.use(reduced.secret, url(c.org));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('may no longer grant');
  });

  it('refuses bad input with the field or reason, and stores nothing', async () => {
    const c = await k.customer();
    const before = await k.count();
    const now = t.clock.now().getTime();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'x'.repeat(101) }, 400, 'name'],
      [{ name: '' }, 400, 'name'],
      [{ roles: [{ role: 'OWNER', scope: 'ORGANIZATION' }] }, 400, 'roles'],
      [{ roles: [{ role: 'ISSUER', scope: 'EVERYWHERE' }] }, 400, 'roles'],
      [{ roles: [] }, 400, 'roles'],
      [{ roles: [{ role: 'SUPERVISOR', scope: 'ORGANIZATION' }] }, 400, 'roles'],
      [{ date_expires: new Date(now).toISOString() }, 400, 'date_expires'],
      [{ date_expires: new Date(now - 1).toISOString() }, 400, 'date_expires'],
      [{ date_expires: new Date(now + 365 * DAY + 1).toISOString() }, 400, 'date_expires'],
      [{ date_expires: 'next week' }, 400, 'date_expires'],
      [{ read_only: 'yes' }, 400, 'read_only'],
      [{ secret: 'cpk_mine' }, 400, 'secret'],
    ];
    for (const [over, status, field] of cases) {
      const res = await k.create(c.org, c.admin, over);
      expect(res.statusCode, JSON.stringify(over)).toBe(status);
      expect(res.body, JSON.stringify(over)).toContain(field);
    }
    // 365 days exactly is allowed.
    expect((await k.create(c.org, c.admin, { date_expires: new Date(now + 365 * DAY).toISOString() })).statusCode).toBe(201);
    expect(await k.count()).toBe(before + 1);
    // Who may not manage keys, and a role beyond what the creator may grant.
    expect((await k.create(c.org, c.issuer)).statusCode).toBe(403);
    const partner = await k.make.organization({ role: 'PARTNER' });
    const partnerAdmin = await k.make.member(partner, { role: 'ADMINISTRATOR', scope: 'ORGANIZATION' });
    const beyond = await k.create(partner, partnerAdmin, { roles: [{ role: 'ISSUER', scope: 'COOPERATION' }] });
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json().message).toContain('ISSUER (COOPERATION)');
    expect(await k.count()).toBe(before + 1);
  });

  it('tells api_key.created, api_key.revoked, and expiring 14, 7 and 1 days ahead, each once at its instant', async () => {
    const c = await k.customer();
    const expires = t.clock.now().getTime() + 20 * DAY;
    const created = await k.key(c.org, c.admin, { date_expires: new Date(expires).toISOString() });
    const events = async () => (await t.db.selectFrom('events').select(['event_type', 'data']).where('subject_id', '=', created.api_key_id).orderBy('event_id').execute())
      .map((e) => `${e.event_type} ${(JSON.parse(e.data) as { days?: number }).days ?? ''}`.trim());
    expect(await events()).toEqual(['api_key.created']);
    await scanTime(t.db, t.clock.now());
    for (const days of [14, 7, 1]) {
      await scanTime(t.db, new Date(expires - days * DAY - 1));
      await scanTime(t.db, new Date(expires - days * DAY));
      await scanTime(t.db, new Date(expires - days * DAY + 1));
    }
    expect(await events()).toEqual(['api_key.created', 'api_key.expiring 14', 'api_key.expiring 7', 'api_key.expiring 1']);
    expect((await t.call(c.admin.email, { method: 'DELETE', url: `${k.base(c.org)}/${created.api_key_id}` })).statusCode).toBe(204);
    expect((await events()).at(-1)).toBe('api_key.revoked');
  });

  it('refuses a malformed or unknown secret with 401', async () => {
    const c = await k.customer();
    const created = await k.key(c.org, c.admin);
    const url = `/api/organizations/${c.org.id}/certificates`;
    const flipped = created.secret.slice(0, 10) + (created.secret[10] === 'a' ? 'b' : 'a') + created.secret.slice(11);
    for (const secret of [flipped, created.secret.slice(0, -1), 'cpk_', `${created.secret}0`]) {
      const res = await k.use(secret, url);
      expect(res.statusCode, secret).toBe(401);
      expect(res.json().message).toContain('malformed');
    }
    // Well formed (its checksum matches) but no key has it.
    const { newKeySecret } = await import('../../auth/api-key-secret');
    const unknown = await k.use(newKeySecret(), url);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toContain('not valid');
  });
});

describe.each(dialects)('the per-key limit and the log on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false, env: { API_KEY_RATE_LIMIT: '3' } });
  const k = keys(t);

  it('answers 429 with Retry-After and RateLimit headers past the limit, counted over two instances', async () => {
    const c = await k.customer();
    const created = await k.key(c.org, c.admin);
    const other = await buildApp({ config: loadConfig({ ...ENV, LOG_LEVEL: 'silent', API_KEY_RATE_LIMIT: '3' }), db: t.db, now: t.clock.now, logger: false });
    try {
      const url = `/api/organizations/${c.org.id}/certificates`;
      t.clock.set(new Date('2026-03-15T10:00:15Z'));
      const first = await k.use(created.secret, url);
      expect(first.headers['ratelimit-policy']).toBe('"api-key";q=3;w=60');
      expect(first.headers.ratelimit).toBe('"api-key";r=2;t=45');
      expect((await k.use(created.secret, url, other)).statusCode).toBe(200);
      expect((await k.use(created.secret, url)).statusCode).toBe(200);
      const refused = await k.use(created.secret, url, other);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('45');
      expect(refused.headers.ratelimit).toBe('"api-key";r=0;t=45');
      // The next window starts afresh.
      t.clock.set(new Date('2026-03-15T10:01:00Z'));
      expect((await k.use(created.secret, url)).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('leases a share of a large limit to each instance: together they let through exactly the limit, writing once a lease', async () => {
    // 60 a minute leases 3 at a time (a twentieth); the other instance is a second app on the same database.
    const env = { ...ENV, LOG_LEVEL: 'silent', API_KEY_RATE_LIMIT: '60' };
    const [one, two] = [await buildApp({ config: loadConfig(env), db: t.db, now: t.clock.now, logger: false }),
      await buildApp({ config: loadConfig(env), db: t.db, now: t.clock.now, logger: false })];
    try {
      const c = await k.customer();
      const created = await k.key(c.org, c.admin);
      const url = `/api/organizations/${c.org.id}/certificates`;
      t.clock.set(new Date('2026-03-15T11:00:20Z'));
      const leased = async () => Number((await t.db.selectFrom('api_key_windows').select('requests')
        .where('api_key_id', '=', created.api_key_id).executeTakeFirst())?.requests ?? 0);
      const first = await k.use(created.secret, url, one);
      expect(first.headers.ratelimit).toBe('"api-key";r=59;t=40');
      expect(await leased()).toBe(3);
      // Two more from the same lease write nothing; the other instance takes its own lease of the next three.
      expect((await k.use(created.secret, url, one)).headers.ratelimit).toBe('"api-key";r=58;t=40');
      expect((await k.use(created.secret, url, one)).headers.ratelimit).toBe('"api-key";r=57;t=40');
      expect(await leased()).toBe(3);
      expect((await k.use(created.secret, url, two)).headers.ratelimit).toBe('"api-key";r=56;t=40');
      expect(await leased()).toBe(6);
      // Each instance's calls come in any order; together exactly the limit is let through, then both refuse.
      const answers = await Promise.all(Array.from({ length: 70 }, (_, i) => k.use(created.secret, url, i % 3 === 0 ? one : two)));
      const passed = answers.filter((a) => a.statusCode === 200).length;
      expect(passed).toBe(60 - 4);
      expect(answers.filter((a) => a.statusCode === 429).every((a) => a.headers['retry-after'] === '40' && a.headers.ratelimit === '"api-key";r=0;t=40')).toBe(true);
      expect(await leased()).toBeLessThanOrEqual(60 + 2 * 3);
      t.clock.set(new Date('2026-03-15T11:01:00Z'));
      expect((await k.use(created.secret, url, two)).statusCode).toBe(200);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('never writes the secret to the log, also when it is refused', async () => {
    const c = await k.customer();
    const created = await k.key(c.org, c.admin);
    const lines: string[] = [];
    const logged = await buildApp({ config: loadConfig({ ...ENV, LOG_LEVEL: 'trace' }), db: t.db, now: t.clock.now, logStream: { write: (line) => lines.push(line) } });
    try {
      await k.use(created.secret, `/api/organizations/${c.org.id}/certificates`, logged);
      await k.use(created.secret, `/api/organizations/${c.org.id}/certificates?secret=${created.secret}`, logged);
      await k.use(`${created.secret.slice(0, -1)}x`, `/api/organizations/${c.org.id}/certificates`, logged);
      await t.call(c.admin.email, { method: 'DELETE', url: `${k.base(c.org)}/${created.api_key_id}` });
      await k.use(created.secret, `/api/organizations/${c.org.id}/certificates`, logged);
      expect(lines.length).toBeGreaterThan(3);
      const all = lines.join('\n');
      expect(all).not.toContain(created.secret);
      expect(all).not.toContain(created.secret.slice(4, 30));
    } finally {
      await logged.close();
    }
  });
});
