/**
 * Production never serves the demo's published password (issue 14 item 4): started with
 * NODE_ENV=production on a database that holds demo accounts (a copy of a demo database), the
 * portal stops at start with a message naming them, instead of serving them. On an empty database it makes the
 * first operator that OPERATOR_ADMIN_EMAIL names (modules/organizations/first-operator.ts) and says so.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { seedDemoData } from '../../server/demo/seed';
import { freePort } from '../support/processes';

describe('production on a demo database', () => {
  it('refuses to start, naming the demo accounts that sign in with the published password', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-production-demo-'));
    try {
      const db = openDatabase({ sqliteFile: path.join(dataDir, 'portal.db') });
      await migrateToLatest(db);
      await seedDemoData(db, new Date());
      await db.destroy();
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain('Refusing to start with NODE_ENV=production: the database holds demo accounts that sign in with the published demo password');
      expect(output).toContain('supervisor@operator.example');
      expect(output).not.toContain('portal-demo');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('makes the first operator OPERATOR_ADMIN_EMAIL names on an empty database, and says so', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-first-operator-'));
    try {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir,
          LOG_LEVEL: 'info', SEED_DEMO: '', OPERATOR_ADMIN_EMAIL: 'Ops@Vendor.example', OPERATOR_NAME: 'Vendor Networks', NOTIFICATIONS: 'off',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const told = new Promise<void>((resolve) => {
        const read = (c: Buffer) => {
          output += c.toString();
          if (output.includes('Created the operator organization Vendor Networks with ops@vendor.example')) resolve();
        };
        child.stdout.on('data', read);
        child.stderr.on('data', read);
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await Promise.race([told, exited.then(() => { throw new Error(`the portal stopped: ${output}`); })]);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const db = openDatabase({ sqliteFile: path.join(dataDir, 'portal.db') });
      const roles = await db.selectFrom('members as m').innerJoin('role_assignments as r', 'r.member_id', 'm.member_id')
        .innerJoin('organizations as o', 'o.organization_id', 'm.organization_id')
        .select(['m.member_email', 'o.organization_name', 'o.organization_role', 'r.role', 'r.scope']).orderBy('r.role').execute();
      await db.destroy();
      expect(roles).toEqual([
        { member_email: 'ops@vendor.example', organization_name: 'Vendor Networks', organization_role: 'OPERATOR', role: 'ADMINISTRATOR', scope: 'COOPERATION' },
        { member_email: 'ops@vendor.example', organization_name: 'Vendor Networks', organization_role: 'OPERATOR', role: 'SUPERVISOR', scope: 'COOPERATION' },
      ]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
