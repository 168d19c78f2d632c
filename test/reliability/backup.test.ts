/**
 * Backup under write load (issue 14 item 6): the real portal runs on SQLite while writers upload
 * certificates as fast as it takes them; `npm run backup` runs as its own process in the middle.
 * The backup must hold every upload acknowledged before it started, be a sound database whose
 * journal matches its rows, and hold nothing sent after it ended. `npm run restore` refuses while
 * the portal runs, puts the backup back once it is stopped (keeping the replaced one aside), and
 * the portal started on it serves the uploads through the API.
 */
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../../server/db/database';
import { loadConfig } from '../../server/config';
import { makeCertificate } from '../../scripts/make-certificate';
import { signToken } from '../support/tokens';
import { freePort, waitFor } from '../support/processes';

const WRITERS = 6;
const DN = /bk-\d{6}/g;

function startPortal(dataDir: string, port: number): ChildProcess {
  const env = { ...process.env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'development' };
  return spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: 'ignore' });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** `npm run <script> -- <args>` as an operator runs it. */
function npmRun(script: string, args: string[], dataDir: string, onOutput?: (stdout: string) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script, '--', ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onOutput?.(stdout);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The uploads' names in a database file: in the certificates table and in the journal's upload records. */
function uploadsIn(file: string) {
  const db = new SQLite(file, { readonly: true });
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    const rows = (db.prepare("select distinguished_name as dn from certificates where distinguished_name like 'CN=bk-%'").all() as Array<{ dn: string }>)
      .map((row) => row.dn.match(DN)![0]);
    const journal = (db.prepare("select message from audit_records where reason = 'CERTIFICATE_UPLOADED' and message like '%bk-%'").all() as Array<{ message: string }>)
      .flatMap((record) => record.message.match(DN) ?? []);
    // Each organization's journal counter is its number of records (a trigger keeps it in the same transaction).
    const counters = db.prepare(
      'select count(*) as n from organization_counters c where c.journal_records <> (select count(*) from audit_records a where a.organization_id = c.organization_id)',
    ).get() as { n: number };
    return { integrity, rows, journal, counterMismatches: counters.n };
  } finally {
    db.close();
  }
}

describe('backup and restore', () => {
  it('backs up under write load with every acknowledged upload, and restores it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-'));
    const backups = path.join(dataDir, '..', `${path.basename(dataDir)}-backups`);
    const port = await freePort('127.0.0.1');
    const publicUrl = `http://127.0.0.1:${port}`;
    let portal = startPortal(dataDir, port);
    try {
      await waitFor(`${publicUrl}/readyz`, 60_000);
      const db = openDatabase({ sqliteFile: path.join(dataDir, 'portal.db') });
      const config = loadConfig({ PORT: String(port), PUBLIC_URL: publicUrl, NODE_ENV: 'test' });
      const token = await signToken(db, { email: 'issuer@contoso.example', email_verified: true }, { issuer: config.oidc.issuer, audience: config.oidc.audience });
      await db.destroy();
      const headers = { authorization: `Bearer ${token}` };
      const [contoso] = (await (await fetch(`${publicUrl}/api/organizations`, { headers })).json()) as Array<{ organization_id: string }>;

      // Writers: each uploads one certificate after another, noting when it sent and when it was acknowledged.
      const acknowledged: string[] = [];
      const sentAfterBackup: string[] = [];
      const phase = { backupDone: false, stop: false };
      let next = 0;
      const writer = async () => {
        while (!phase.stop) {
          const name = `bk-${String(next++).padStart(6, '0')}`;
          const now = Date.now();
          const { pem } = await makeCertificate({ subject: `CN=${name}.contoso.example`, notBefore: new Date(now), notAfter: new Date(now + 86_400_000) });
          if (phase.backupDone) sentAfterBackup.push(name);
          const res = await fetch(`${publicUrl}/api/organizations/${contoso.organization_id}/certificates`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ description: 'written under backup', certificate: pem }),
          });
          await res.arrayBuffer();
          if (res.status === 201) acknowledged.push(name);
          else throw new Error(`upload ${name} answered ${res.status}`);
        }
      };
      const writing = Promise.all(Array.from({ length: WRITERS }, writer));
      const until = async (check: () => boolean) => {
        while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
      };
      await until(() => acknowledged.length >= 30);

      // Acknowledged before the backup says it begins to copy (the script's first line): all must be in it.
      let beforeBackup: string[] = [];
      const backup = await npmRun('backup', [backups], dataDir, (stdout) => {
        if (beforeBackup.length === 0 && stdout.includes('Backing up')) beforeBackup = [...acknowledged];
      });
      phase.backupDone = true;
      const acknowledgedByBackupEnd = acknowledged.length;
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      // Some uploads were sent after it ended (so the load ran across it), then the writers stop.
      await until(() => sentAfterBackup.length >= WRITERS * 2 && acknowledged.length > acknowledgedByBackupEnd);
      phase.stop = true;
      await writing;
      expect(acknowledged.length).toBeGreaterThan(beforeBackup.length);

      const file = /Backed up .* to (\S+\.db) /.exec(backup.stdout)?.[1];
      expect(file, backup.stdout).toBeDefined();
      expect(path.dirname(file!)).toBe(path.resolve(backups));
      const inBackup = uploadsIn(file!);
      expect(inBackup.integrity).toBe('ok');
      const rows = new Set(inBackup.rows);
      expect(beforeBackup.filter((name) => !rows.has(name))).toEqual([]);
      expect(sentAfterBackup.filter((name) => rows.has(name))).toEqual([]);
      // The journal matches the rows: one upload record per certificate, none without one.
      expect([...inBackup.journal].sort()).toEqual([...inBackup.rows].sort());
      expect(inBackup.counterMismatches).toBe(0);

      // Not while the portal runs: nothing is changed.
      const refused = await npmRun('restore', [file!], dataDir);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/Not restored: a portal has .*portal\.db open\. Stop it first/);
      expect(fs.readdirSync(dataDir).filter((name) => name.includes('replaced'))).toEqual([]);

      await stop(portal);
      const restored = await npmRun('restore', [file!], dataDir);
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      const aside = /kept as (\S+)\./.exec(restored.stdout)?.[1];
      expect(aside, restored.stdout).toMatch(/portal\.db\.replaced-\d{8}T\d{6}Z$/);
      // The replaced database is kept whole: every acknowledged upload is in it.
      const replaced = new Set(uploadsIn(aside!).rows);
      expect(acknowledged.filter((name) => !replaced.has(name))).toEqual([]);

      // The portal on the restored database serves the backup's uploads, and only those.
      portal = startPortal(dataDir, port);
      await waitFor(`${publicUrl}/readyz`, 60_000);
      const csv = await fetch(`${publicUrl}/api/organizations/${contoso.organization_id}/certificates.csv`, { headers });
      expect(csv.status).toBe(200);
      const served = new Set((await csv.text()).match(DN) ?? []);
      expect([...served].sort()).toEqual([...rows].sort());
      expect(beforeBackup.every((name) => served.has(name))).toBe(true);
    } finally {
      await stop(portal);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(backups, { recursive: true, force: true });
    }
  }, 240_000);
});
