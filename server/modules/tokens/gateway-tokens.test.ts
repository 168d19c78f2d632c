/**
 * Gateway tokens recorded, listed and revoked (issue 34 item 3): a revoked token is refused at the next
 * poll, on the 304 answered before Fastify too, and on another instance of the same database; a token
 * made before tokens were recorded keeps working; "last used" is written at most once a minute.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { TEST_CONFIG } from '../../../test/support/tokens';
import { factories, type Cooperation } from '../../../test/support/factories';
import { databaseLocation, openDatabase, type Db } from '../../db/database';
import { readEpoch } from '../../db/export-epoch';
import { migrator } from '../../db/migrate';
import { buildApp } from '../../app';
import { requestIdOf } from '../../http/request-id';
import { withFastPoll } from '../piston/fast-poll';
import { signApiToken } from './api-tokens';
import type { ApiToken } from '../../../common/schemas/token';

const dialects = await testDialects();
const SECRET = 'a master secret for the tests';
const MINUTE = 60_000;

/** Polls until `check` holds or `ms` pass: another instance learns of a change by notification. */
async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

describe.each(dialects)('gateway tokens listed and revoked on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  let served: FastifyInstance;
  let server: http.Server;
  let base: string;
  /** Requests Fastify itself handled behind the fast path. */
  let handled = 0;

  beforeAll(async () => {
    w = await make.cooperation();
    // One app behind the fast path on a real server, as main.ts has it (fast-poll.test.ts); it holds the secret.
    served = await buildApp({ config: TEST_CONFIG, db: t.db, now: t.clock.now, logger: false });
    await served.ready();
    server = http.createServer(withFastPoll((request, response) => {
      handled++;
      served.routing(request, response);
    }, () => served, requestIdOf(TEST_CONFIG)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const given = await served.inject({ method: 'POST', url: '/api/admin/mastersecret', payload: SECRET, headers: { ...(await t.as(w.devops.email)), 'content-type': 'text/plain' } });
    expect(given.statusCode).toBe(200);
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await served?.close();
  });

  const call = async (as: string, options: { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: object }) =>
    served.inject({ ...options, headers: await t.as(as) });
  const create = async (payload: object, as = w.devops.email) => {
    const res = await call(as, { method: 'POST', url: '/api/token', payload: { groups: ['piston_export'], expires_in: 30, ...payload } });
    expect(res.statusCode, res.body).toBe(200);
    return { token: res.body, id: String(decodeJwt(res.body).jti) };
  };
  const list = async (as = w.supervisor.email) => {
    const res = await call(as, { method: 'GET', url: '/api/tokens' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as ApiToken[];
  };
  const listed = async (id: string) => (await list()).find((token) => token.token_id === id)!;
  const revoke = (id: string, as = w.supervisor.email) => call(as, { method: 'DELETE', url: `/api/tokens/${id}` });
  const poll = async (token: string, etag?: string) => {
    const res = await fetch(`${base}/api/piston/certs`, { headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) } });
    await res.arrayBuffer();
    return { status: res.status, etag: res.headers.get('etag') ?? '' };
  };
  /** PostgreSQL: for 2 s after a write through this database the export epoch is read, not taken from LISTEN. */
  const afterWriteWindow = () => new Promise((resolve) => setTimeout(resolve, dialect === 'postgres' ? 2_100 : 0));
  /** A 304 answered before Fastify: the fast path is open for this token. */
  async function fastUnchanged(token: string, etag: string) {
    await afterWriteWindow();
    const before = handled;
    expect((await poll(token, etag)).status).toBe(304);
    expect(handled, 'answered before Fastify').toBe(before);
  }

  it('records a token with its name, or its upn when an old client sends none, and lists it for SUPERVISOR and DEVOPS', async () => {
    const named = await create({ upn: 'piston@gateway.example', name: 'Frankfurt gateway' });
    const unnamed = await create({ upn: 'legacy-client@gateway.example' });
    const items = await list(w.devops.email);
    // Newest first (then by id: tests make several at one instant).
    const order = (i: ApiToken) => `${i.date_created} ${i.token_id}`;
    expect(items.map(order)).toEqual(items.map(order).sort().reverse());
    const shown = items.find((i) => i.token_id === named.id)!;
    expect(shown).toEqual({
      token_id: named.id, name: 'Frankfurt gateway', upn: 'piston@gateway.example', groups: ['piston_export'], created_by: w.devops.email,
      date_created: t.clock.now().toISOString(), date_expires: new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString(),
      date_last_used: null, date_revoked: null, revoked_by: null, status: 'active', abilities: ['token.revoke'],
    });
    expect(items.find((i) => i.token_id === unnamed.id)!.name).toBe('legacy-client@gateway.example');
    // The token text is nowhere in the list or the database.
    expect(JSON.stringify(items)).not.toContain(named.token);
    expect(JSON.stringify(await t.db.selectFrom('api_tokens').selectAll().execute())).not.toContain(named.token.split('.')[2]);
    const record = await t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'TOKEN_CREATED').where('message', 'like', `%${named.id}%`).executeTakeFirstOrThrow();
    expect(record.message).toContain('"Frankfurt gateway"');
    // Others: no list, no revocation.
    for (const email of [w.operatorAdmin.email, w.approver.email, w.partnerAdmin.email, w.member.email]) {
      expect((await call(email, { method: 'GET', url: '/api/tokens' })).statusCode, email).toBe(403);
      expect((await revoke(named.id, email)).statusCode, email).toBe(403);
    }
    expect((await listed(named.id)).status).toBe('active');
  });

  it('shows a token expired from its exp on, at t-1ms active', async () => {
    const { id } = await create({ upn: 'short@gateway.example', name: 'short', expires_in: 1 });
    const exp = new Date((await listed(id)).date_expires).getTime();
    t.clock.set(new Date(exp - 1));
    expect((await listed(id)).status).toBe('active');
    t.clock.set(new Date(exp));
    expect((await listed(id)).status).toBe('expired');
    t.clock.set(new Date(exp + 1));
    expect((await listed(id)).status).toBe('expired');
  });

  it('writes "last used" at the first poll and then at most once a minute', async () => {
    const { token, id } = await create({ upn: 'used@gateway.example', name: 'used' });
    // A day on: the other tests' polls (at START) were written more than a minute before.
    const start = t.clock.now().getTime() + 86_400_000;
    t.clock.set(new Date(start));
    expect((await poll(token)).status).toBe(200);
    const lastUsed = async () => (await t.db.selectFrom('api_tokens').select('date_last_used').where('token_id', '=', id).executeTakeFirstOrThrow()).date_last_used;
    expect(await eventually(async () => (await lastUsed()) === new Date(start).toISOString())).toBe(true);
    t.clock.set(new Date(start + MINUTE - 1));
    expect((await poll(token)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(await lastUsed()).toBe(new Date(start).toISOString());
    t.clock.set(new Date(start + MINUTE));
    expect((await poll(token)).status).toBe(200);
    expect(await eventually(async () => (await lastUsed()) === new Date(start + MINUTE).toISOString())).toBe(true);
    expect((await listed(id)).date_last_used).toBe(new Date(start + MINUTE).toISOString());
  });

  it('refuses a revoked token at the next poll, the 304 answered before Fastify too; journaled; a second revocation is 409', async () => {
    const { token, id } = await create({ upn: 'leaked@gateway.example', name: 'leaked' });
    const { etag } = await poll(token);
    await fastUnchanged(token, etag);
    const records = async () => (await t.db.selectFrom('audit_records').select('message').where('reason', '=', 'TOKEN_REVOKED').where('message', 'like', `%${id}%`).execute()).length;
    expect(await records()).toBe(0);

    const revoked = await revoke(id);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ token_id: id, status: 'revoked', revoked_by: w.supervisor.email, date_revoked: t.clock.now().toISOString(), abilities: [] });
    expect(await records()).toBe(1);
    // At once, without waiting out anything: the poll with the ETag the gateway holds is refused.
    expect((await poll(token, etag)).status).toBe(401);
    // And later, when the fast path would answer again: still refused, by Fastify.
    await afterWriteWindow();
    const before = handled;
    expect((await poll(token, etag)).status).toBe(401);
    expect(handled).toBe(before + 1);
    expect((await served.inject({ method: 'GET', url: '/api/piston/routes.hcl', headers: { authorization: `Bearer ${token}` } })).json().message).toContain('revoked');

    const again = await revoke(id, w.devops.email);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already revoked');
    expect(await records()).toBe(1);
    expect((await revoke('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect(await listed(id)).toMatchObject({ status: 'revoked', abilities: [] });
  });

  it('lets exactly one of two revocations at once win', async () => {
    const { id } = await create({ upn: 'race@gateway.example', name: 'race' });
    const answers = await Promise.all([revoke(id), revoke(id, w.devops.email)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await t.db.selectFrom('audit_records').select('record_id').where('reason', '=', 'TOKEN_REVOKED').where('message', 'like', `%${id}%`).execute()).length).toBe(1);
  });

  it('keeps a token made before tokens were recorded working (no row), and other tokens working after a revocation', async () => {
    const old = await signApiToken(served, { upn: 'before-issue-34', groups: ['piston_export'], expiresInDays: 30 });
    const kept = await create({ upn: 'kept@gateway.example', name: 'kept' });
    const gone = await create({ upn: 'gone@gateway.example', name: 'gone' });
    const { etag } = await poll(old.token);
    for (const token of [kept.token, gone.token]) expect((await poll(token)).status).toBe(200);
    // All three kept by this process, on the fast path.
    for (const token of [old.token, kept.token, gone.token]) await fastUnchanged(token, etag);
    expect((await revoke(gone.id)).statusCode).toBe(200);
    // The others first (the export is made again for the new epoch, each token looked up again once), then,
    // once the fast path answers again, the revoked one.
    for (const token of [old.token, kept.token]) expect((await poll(token, etag)).status).toBe(304);
    await fastUnchanged(kept.token, etag);
    const before = handled;
    expect((await poll(gone.token, etag)).status).toBe(401);
    expect(handled, 'refused by Fastify, not answered before it').toBe(before + 1);
    await fastUnchanged(old.token, etag);
    expect((await list()).some((i) => i.token_id === old.id)).toBe(false);
  });
});

describe.runIf(dialects.includes('postgres'))('a revocation on one instance refuses the token on another (PostgreSQL)', () => {
  const t = useTestApp('postgres', { demo: false });
  const make = factories(t);
  let other: Db;
  let second: FastifyInstance;
  let server: http.Server;
  let base: string;
  let handled = 0;

  beforeAll(async () => {
    // The second instance: its own database handle (its own pool and LISTEN connection), its own app and server.
    other = openDatabase({ databaseUrl: databaseLocation(t.db)!.databaseUrl! });
    second = await buildApp({ config: TEST_CONFIG, db: other, now: t.clock.now, logger: false });
    await second.ready();
    server = http.createServer(withFastPoll((request, response) => {
      handled++;
      second.routing(request, response);
    }, () => second, requestIdOf(TEST_CONFIG)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await second?.close();
    await other?.destroy();
  });

  it('answers 401 on B at the next poll after a revocation through A, B on its fast path before', async () => {
    const w = await make.cooperation();
    for (const app of [t.app, second]) {
      const given = await app.inject({ method: 'POST', url: '/api/admin/mastersecret', payload: SECRET, headers: { ...(await t.as(w.devops.email)), 'content-type': 'text/plain' } });
      expect(given.statusCode, given.body).toBe(200);
    }
    const made = await t.call(w.devops.email, { method: 'POST', url: '/api/token', payload: { upn: 'two@gateway.example', name: 'two', groups: ['piston_export'] } });
    const token = made.body;
    const poll = async (etag?: string) => {
      const res = await fetch(`${base}/api/piston/certs`, { headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) } });
      await res.arrayBuffer();
      return { status: res.status, etag: res.headers.get('etag') ?? '' };
    };
    const { etag } = await poll();
    // B's own write ("last used") has passed its moment: B answers from memory, before Fastify.
    await new Promise((r) => setTimeout(r, 2_100));
    const before = handled;
    expect((await poll(etag)).status).toBe(304);
    expect(handled).toBe(before);

    const revoked = await t.call(w.supervisor.email, { method: 'DELETE', url: `/api/tokens/${String(decodeJwt(token).jti)}` });
    expect(revoked.statusCode, revoked.body).toBe(200);
    // B learns of it by notification: from then on every poll is refused.
    expect(await eventually(async () => (await poll(etag)).status === 401)).toBe(true);
    expect((await poll(etag)).status).toBe(401);
  });
});

describe.each(dialects)('migration 0026 on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => database?.drop());

  it('moves the export epoch on a revocation only, not on "last used", and goes down and up again', async () => {
    const { db } = database;
    expect((await migrator(db).migrateDown()).error).toBeUndefined();
    expect((await migrator(db).migrateToLatest()).error).toBeUndefined();
    const at = '2026-03-15T10:00:00.000Z';
    await db.insertInto('api_tokens').values({
      token_id: 'jti-1', token_name: 'one', upn: 'one', groups: '["piston_export"]', organization_id: 'operator', created_by: 'devops@operator.example',
      date_created: at, date_expires: '2026-04-15T10:00:00.000Z', date_last_used: null, date_revoked: null, revoked_by: null,
    }).execute();
    const epoch = () => readEpoch(db, 'export_epoch');
    const before = await epoch();
    await db.updateTable('api_tokens').set({ date_last_used: at }).where('token_id', '=', 'jti-1').execute();
    expect(await epoch()).toBe(before);
    await db.updateTable('api_tokens').set({ date_revoked: at, revoked_by: 'supervisor@operator.example' }).where('token_id', '=', 'jti-1').execute();
    expect(await epoch()).toBeGreaterThan(before);
  });
});
