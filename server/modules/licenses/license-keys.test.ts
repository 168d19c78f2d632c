import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generateKeyPairSync } from 'node:crypto';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { TEST_CONFIG } from '../../../test/support/tokens';
import { factories, type Cooperation } from '../../../test/support/factories';
import { buildApp } from '../../app';
import { verifyLicenseKey } from '../../../common/license-key';
import type { License } from '../../../common/schemas/license';

const dialects = await testDialects();
const SECRET = 'correct horse battery staple 2026';
const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), 'license-keys-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(dialects)('license keys and the master secret on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The operator's staff, the partner's and its customer's people; the licenses are the customer's. */
  let w: Cooperation;
  let DEVOPS: string;
  let SUPERVISOR: string;
  beforeAll(async () => {
    w = await make.cooperation();
    DEVOPS = w.devops.email;
    SUPERVISOR = w.supervisor.email;
  });
  let serial = 0;
  const provide = (as: string | null, secret: string, app = t.app) =>
    t.as(as ?? '').then((headers) =>
      app.inject({ method: 'POST', url: '/api/admin/mastersecret', payload: secret, headers: { ...(as ? headers : {}), 'content-type': 'text/plain' } }),
    );
  const keyOf = (id: string, as = w.member.email, app = t.app) =>
    t.as(as).then((headers) => app.inject({ method: 'GET', url: `/api/licenses/${id}/license-key`, headers }));
  const state = async (app = t.app) => (await t.as(DEVOPS).then((headers) => app.inject({ method: 'GET', url: '/api/admin/state', headers }))).json();

  /**
   * The secret held by this process: given now (by DevOps, through the API) unless a test before gave it.
   * The database keeps the verifier of SECRET, the only secret any test here gets accepted.
   */
  async function secretProvided() {
    if (!t.app.masterSecret.provided) expect((await provide(DEVOPS, SECRET)).statusCode).toBe(200);
  }
  /**
   * A process that never had the secret on a database that never had it either: the verifier a
   * test before may have stored is dropped, and the app restarted (t.restart) holds no secret.
   */
  async function neverProvided() {
    await t.db.deleteFrom('settings').where('name', '=', 'master-secret.verifier').execute();
    await t.restart();
  }
  const lastRecordId = async () => Number((await t.db.selectFrom('audit_records').select((eb) => eb.fn.max('record_id').as('n')).executeTakeFirst())?.n ?? 0);

  async function license(approved = true): Promise<License> {
    const created = await t.call(SUPERVISOR, { method: 'POST', url: `/api/organizations/${w.customer.id}/licenses`, payload: { license_name: `Keyed ${dialect} ${++serial}`, license_scope: 'LAB' } });
    if (!approved) return created.json();
    return (await t.call(SUPERVISOR, { method: 'POST', url: `/api/licenses/${created.json().license_id}/approve`, payload: created.json() })).json();
  }

  it('answers 503 "Secret not yet provided!" for keys and the public key until the secret is given', async () => {
    await t.restart();
    expect(await state()).toEqual({ secret_provided: false });
    const publicKey = await t.app.inject({ method: 'GET', url: '/api/licenses/public-key' });
    expect(publicKey.statusCode).toBe(503);
    expect(publicKey.json().message).toMatch(/^Secret not yet provided!/);
    const approved = await license();
    expect((await keyOf(approved.license_id)).statusCode).toBe(503);
    // The state is checked before the secret: a request has no key, secret or not.
    const requested = await keyOf((await license(false)).license_id);
    expect(requested.statusCode).toBe(409);
    expect(requested.json().message).toBe('The license key exists only once the license is approved.');
  });

  it('takes the secret from operator DEVOPS only, at least 16 characters, once; stores only a verifier', async () => {
    await neverProvided();
    const since = await lastRecordId();
    expect((await provide(null, SECRET)).statusCode).toBe(401);
    for (const who of [SUPERVISOR, w.operatorAdmin.email, w.issuer.email, w.partnerAdmin.email]) {
      const res = await provide(who, SECRET);
      expect(res.statusCode, who).toBe(403);
    }
    const short = await provide(DEVOPS, '  fifteen chars  ');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ field: 'secret', message: 'The secret must have at least 16 characters.' });
    expect(await state()).toEqual({ secret_provided: false });

    const res = await provide(DEVOPS, `${SECRET}\n`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ secret_provided: true });
    expect(await state()).toEqual({ secret_provided: true });
    for (const again of [SECRET, 'another secret of enough length']) {
      const twice = await provide(DEVOPS, again);
      expect(twice.statusCode).toBe(409);
      expect(twice.json().message).toBe('Secret already provided!');
    }

    const settings = await t.db.selectFrom('settings').selectAll().execute();
    const verifier = settings.find((s) => s.name === 'master-secret.verifier')!;
    expect(verifier.value).toMatch(/^scrypt\$/);
    expect(JSON.stringify(settings)).not.toContain(SECRET);
    const records = await t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'MASTER_SECRET_PROVIDED').where('record_id', '>', since).execute();
    expect(records).toEqual([expect.objectContaining({ member_email: DEVOPS, organization_id: w.operator.id, message: 'The master secret was provided for the first time; its verifier is stored.' })]);
    expect(JSON.stringify(records)).not.toContain(SECRET);
  });

  it('signs keys of approved licenses that verify offline with the published public key', async () => {
    await secretProvided();
    const publicKey = await t.app.inject({ method: 'GET', url: '/api/licenses/public-key' });
    expect(publicKey.statusCode).toBe(200);
    expect(publicKey.headers['content-type']).toMatch(/^application\/x-pem-file/);
    expect(publicKey.body).toMatch(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=]+\n-----END PUBLIC KEY-----\n$/);

    const l = await license();
    const res = await keyOf(l.license_id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toMatch(/^CPL1\./);
    expect((await keyOf(l.license_id, SUPERVISOR)).body).toBe(res.body); // deterministic
    expect(verifyLicenseKey(res.body, publicKey.body)).toEqual({
      license_id: l.license_id, license_name: l.license_name, license_scope: 'LAB', organization_id: w.customer.id,
      date_valid_from: l.date_valid_from, date_valid_until: l.date_valid_until,
    });
    const tampered = res.body.replace('CPL1.e', 'CPL1.f');
    expect(tampered).not.toBe(res.body);
    expect(() => verifyLicenseKey(tampered, publicKey.body)).toThrow(/does not match/);
    expect(() => verifyLicenseKey(res.body, generateKeyPairSync('ed25519').publicKey)).toThrow(/does not match/);
  });

  it('gives the key to every reader of the organization, to nobody else, and never for a rejected license', async () => {
    await secretProvided();
    const l = await license();
    const readers = [w.issuer, w.member, w.partnerAdmin, w.approver, w.supervisor, w.devops].map((p) => p.email);
    for (const who of readers) expect((await keyOf(l.license_id, who)).statusCode, who).toBe(200);
    expect((await keyOf(l.license_id, w.partnerIssuer.email)).statusCode).toBe(404);
    expect((await t.call(null, { method: 'GET', url: `/api/licenses/${l.license_id}/license-key` })).statusCode).toBe(401);
    const rejected = await license(false);
    await t.call(SUPERVISOR, { method: 'POST', url: `/api/licenses/${rejected.license_id}/reject?version=1` });
    expect((await keyOf(rejected.license_id)).json().message).toBe('A rejected license has no license key.');
  });

  it('after a restart asks for the same secret again, and then signs the same keys', async () => {
    await neverProvided();
    const since = await lastRecordId();
    await secretProvided();
    const l = await license();
    const before = (await keyOf(l.license_id)).body;
    const publicKey = (await t.app.inject({ method: 'GET', url: '/api/licenses/public-key' })).body;
    const restarted = await buildApp({ config: TEST_CONFIG, db: t.db, now: t.clock.now, logger: false });
    try {
      expect(await state(restarted)).toEqual({ secret_provided: false });
      expect((await keyOf(l.license_id, undefined, restarted)).statusCode).toBe(503);
      const wrong = await provide(DEVOPS, 'a different secret, long enough', restarted);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('The secret does not match the one provided before.');
      expect(await state(restarted)).toEqual({ secret_provided: false });
      expect((await provide(DEVOPS, SECRET, restarted)).statusCode).toBe(200);
      expect((await restarted.inject({ method: 'GET', url: '/api/licenses/public-key' })).body).toBe(publicKey);
      expect((await keyOf(l.license_id, undefined, restarted)).body).toBe(before);
      const messages = (await t.db.selectFrom('audit_records').select('message').where('reason', '=', 'MASTER_SECRET_PROVIDED').where('record_id', '>', since).orderBy('record_id').execute()).map((r) => r.message);
      expect(messages).toEqual(['The master secret was provided for the first time; its verifier is stored.', 'The master secret was provided again after a restart.']);
    } finally {
      await restarted.close();
    }
  });

  it('reads MASTER_SECRET_FILE at start, and refuses to start with a wrong or missing file', async () => {
    // The database holds the verifier of SECRET.
    await secretProvided();
    const file = path.join(scratch, `${dialect}-secret.txt`);
    writeFileSync(file, `${SECRET}\n`);
    const fromFile = await buildApp({ config: { ...TEST_CONFIG, masterSecretFile: file }, db: t.db, now: t.clock.now, logger: false });
    try {
      expect(await state(fromFile)).toEqual({ secret_provided: true });
    } finally {
      await fromFile.close();
    }
    writeFileSync(file, 'not the secret, but long enough');
    await expect(buildApp({ config: { ...TEST_CONFIG, masterSecretFile: file }, db: t.db, logger: false })).rejects.toThrow(/MASTER_SECRET_FILE: The secret does not match/);
    await expect(buildApp({ config: { ...TEST_CONFIG, masterSecretFile: `${file}.missing` }, db: t.db, logger: false })).rejects.toThrow(/MASTER_SECRET_FILE: cannot read/);
  });

  it('verifies a key with the command of scripts/, and refuses a changed one', async () => {
    await secretProvided();
    const l = await license();
    const key = (await keyOf(l.license_id)).body;
    const pem = (await t.app.inject({ method: 'GET', url: '/api/licenses/public-key' })).body;
    const files = { key: path.join(scratch, `${dialect}.key`), bad: path.join(scratch, `${dialect}-bad.key`), pem: path.join(scratch, `${dialect}.pem`) };
    writeFileSync(files.key, `${key}\n`);
    writeFileSync(files.bad, key.slice(0, -2) + (key.endsWith('AA') ? 'BA' : 'AA'));
    writeFileSync(files.pem, pem);
    const script = path.resolve('scripts/verify-license-key.ts');
    const ok = await run(process.execPath, ['--import', 'tsx', script, files.key, files.pem]);
    expect(JSON.parse(ok.stdout)).toMatchObject({ valid_signature: true, payload: { license_id: l.license_id, license_name: l.license_name } });
    const bad = await run(process.execPath, ['--import', 'tsx', script, files.bad, files.pem]).catch((error) => error);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^INVALID: /);
  });
});
