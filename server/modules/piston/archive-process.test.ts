/**
 * The archive's builder as a child process (archive-builder.ts) on a database a second connection
 * reaches: a SQLite file always, PostgreSQL when reachable. The child exits when idle and a new one
 * goes on from the files of the last build, with the same bytes; a child that dies fails the requests
 * waiting for it at once, and the next build starts another; closing the app stops it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { openDatabase, type Db } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { createTestDatabase, testDialects } from '../../../test/support/databases';
import { TEST_CONFIG, TestClock, signToken } from '../../../test/support/tokens';
import { factories, type Certificate } from '../../../test/support/factories';
import { CertsArchive } from './archive';
import { archiveBuilderFolder, archiveBuilderPid, buildCertsArchive, closeArchiveBuilder, setArchiveBuilderIdle } from './archive-builder';

const dialects = await testDialects();
const run = promisify(execFile);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, ms = 15_000, what = 'condition') {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each(dialects)('certificate archive in a child process on %s', (dialect) => {
  const clock = new TestClock();
  let db: Db;
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  let headers: Record<string, string>;
  /** An approved certificate in the archive (of the factories' customers), which the first test revokes. */
  let revocable: Certificate;

  beforeAll(async () => {
    if (dialect === 'sqlite') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-archive-'));
      db = openDatabase({ sqliteFile: path.join(dir, 'portal.db') });
      await migrateToLatest(db);
      cleanup = async () => {
        await db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      };
    } else {
      const database = await createTestDatabase('postgres');
      db = database.db;
      cleanup = database.drop;
    }
    // Two customers of the factories with certificates in and out of the archive, and the operator's DevOps.
    const make = factories({ db, clock });
    const operator = await make.organization({ role: 'OPERATOR' });
    const devops = await make.member(operator, { role: 'DEVOPS', scope: 'COOPERATION' });
    for (const customer of [await make.organization({ parent: operator }), await make.organization({ parent: operator })]) {
      for (const state of ['approved', 'approved', 'requested', 'expired', 'revoked'] as const) await make.certificate(customer, state);
    }
    revocable = await make.certificate(await make.organization({ parent: operator }), 'approved');
    app = await buildApp({ config: TEST_CONFIG, db, now: clock.now, logger: false });
    await app.ready();
    const token = await signToken(db, { email: devops.email, email_verified: true, name: 'devops' });
    headers = { authorization: `Bearer ${token}` };
    setArchiveBuilderIdle(300);
  });

  afterAll(async () => {
    setArchiveBuilderIdle(30_000);
    await app?.close();
    await cleanup?.();
  });

  const certs = (extra: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/api/piston/certs', headers: { ...headers, ...extra } });
  const fromNothing = async () => (await new CertsArchive(db).build(clock.now())).archive;
  /** A write the archive does not show: the export epoch moves, so the next request builds again. */
  const touch = () => db.updateTable('certificates').set({ description: `touched ${Math.random()}` }).where('date_approved', 'is not', null).execute();

  it('exits when idle; a later build by a new child gives the same bytes and ETag', async () => {
    // A minute of idleness first, so the child is surely still there when its pid is read: read
    // after 300 ms of a busy machine, it was already gone.
    await closeArchiveBuilder(db);
    setArchiveBuilderIdle(60_000);
    await touch(); // the kept export would answer without a build
    const first = await certs();
    expect(first.statusCode).toBe(200);
    const pid = archiveBuilderPid(db)!;
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    // From the next answer on, 300 ms without work end it: the same child answers (a change the
    // archive does not show), then exits.
    setArchiveBuilderIdle(300);
    await touch();
    expect((await certs({ 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    await until(() => !alive(pid), 15_000, 'the idle child to exit');
    expect(archiveBuilderPid(db)).toBeUndefined();

    await touch();
    const again = await certs({ 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(archiveBuilderPid(db)).not.toBe(pid);
    await touch();
    const whole = await certs();
    expect(whole.headers.etag).toBe(first.headers.etag);
    expect(whole.rawPayload.equals(first.rawPayload)).toBe(true);

    // A change the archive shows, built by a child that started from the kept pieces: the bytes of a build from nothing.
    await until(() => archiveBuilderPid(db) === undefined, 15_000, 'the idle child to exit');
    await db.updateTable('certificates').set({ date_revoked: clock.now().toISOString() })
      .where('distinguished_name', '=', revocable.dn).execute();
    // It read again only the organization that changed: it went on from the files the last child left.
    const seeded = await buildCertsArchive(db, clock.now());
    expect(seeded.timing!.organizations).toBeGreaterThan(2);
    expect(seeded.timing!.stale).toBe(1);
    const changed = await certs();
    const expected = await fromNothing();
    expect(seeded.archive.etag).toBe(expected.etag);
    expect(changed.headers.etag).toBe(expected.etag);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect(changed.rawPayload.equals(expected.body)).toBe(true);
  });

  it('fails the waiting requests when the child dies, and the next build starts another', async () => {
    await closeArchiveBuilder(db);
    await touch();
    const waiting = certs();
    await until(() => archiveBuilderPid(db) !== undefined, 15_000, 'a child to start');
    const pid = archiveBuilderPid(db)!;
    process.kill(pid, 'SIGKILL');
    const failed = await waiting;
    expect(failed.statusCode).toBe(500);
    expect(archiveBuilderPid(db)).toBeUndefined();

    const direct = buildCertsArchive(db, clock.now());
    process.kill(archiveBuilderPid(db)!, 'SIGKILL');
    await expect(direct).rejects.toThrow(/builder process stopped/);

    const next = await certs();
    expect(next.statusCode).toBe(200);
    expect(next.headers.etag).toBe((await fromNothing()).etag);
    expect(archiveBuilderPid(db)).not.toBe(pid);
  });

  it('stops the child and removes its files when the app closes', async () => {
    await touch();
    expect((await certs()).statusCode).toBe(200);
    const pid = archiveBuilderPid(db)!;
    const folder = archiveBuilderFolder(db)!;
    expect(alive(pid)).toBe(true);
    expect(fs.readdirSync(folder).sort()).toEqual([expect.stringMatching(/^\d+\.state$/), expect.stringMatching(/^\d+\.tgz$/)]);
    await closeArchiveBuilder(db);
    expect(alive(pid)).toBe(false);
    expect(fs.existsSync(folder)).toBe(false);
  });
});

describe('closing the archive builder in a process with nothing else to do', () => {
  it('finishes: the child it waits for keeps the process alive until its files are removed', async () => {
    // As a shutdown (server/main.ts) closes the app: the server is already closed, so the wait for the
    // child is all the event loop has. Unreferenced, the child let the process end in the middle of it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-archive-close-'));
    const root = path.resolve(import.meta.dirname, '../../..');
    const script = path.join(dir, 'close.mts');
    fs.writeFileSync(script, `
      import { execFile } from 'node:child_process';
import fs from 'node:fs';
      import { openDatabase } from '${root}/server/db/database.ts';
      import { migrateToLatest } from '${root}/server/db/migrate.ts';
      import { archiveBuilderFolder, buildCertsArchive, closeArchiveBuilder } from '${root}/server/modules/piston/archive-builder.ts';
      const db = openDatabase({ sqliteFile: process.argv[2] });
      await migrateToLatest(db);
      const serving = setInterval(() => {}, 1000); // the server, until the shutdown closes it
      await buildCertsArchive(db, new Date());
      const folder = archiveBuilderFolder(db);
      clearInterval(serving);
      await closeArchiveBuilder(db);
      await db.destroy();
      console.log(JSON.stringify({ folder, left: fs.existsSync(folder) }));
    `);
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', script, path.join(dir, 'portal.db')], { cwd: root, timeout: 60_000 });
      const { folder, left } = JSON.parse(stdout.trim().split('\n').pop()!) as { folder: string; left: boolean };
      expect(folder).toContain('portal-archive-');
      expect(left).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
