/**
 * Production never serves the demo's published password (issue 14 item 4): started with
 * NODE_ENV=production on a database that holds demo accounts (a copy of a demo database), the
 * portal stops at start with a message naming them, instead of serving them.
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
});
