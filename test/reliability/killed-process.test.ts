/**
 * Data survives a killed process: the portal runs as a real child process on SQLite, answers a
 * change, is killed with SIGKILL (no shutdown at all), and the change is in the database after.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/database';
import { signToken } from '../support/tokens';
import { makeCertificate } from '../../scripts/make-certificate';
import { loadConfig } from '../../server/config';
import { freePort, waitFor } from '../support/processes';

describe('a killed process', () => {
  it('keeps every change it answered', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-kill-'));
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const env = { ...process.env, PORT: String(port), PUBLIC_URL: publicUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'development' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: 'ignore' });
    try {
      await waitFor(`${publicUrl}/readyz`, 60_000);
      const db = openDatabase({ sqliteFile: path.join(dataDir, 'portal.db') });
      const config = loadConfig({ PORT: String(port), PUBLIC_URL: publicUrl, NODE_ENV: 'test' });
      const token = await signToken(db, { email: 'issuer@contoso.example', email_verified: true }, { issuer: config.oidc.issuer, audience: config.oidc.audience });
      await db.destroy();
      const organizations = (await (await fetch(`${publicUrl}/api/organizations`, { headers: { authorization: `Bearer ${token}` } })).json()) as Array<{ organization_id: string }>;
      const now = Date.now();
      const { pem } = await makeCertificate({ subject: 'CN=survivor.contoso.example', notBefore: new Date(now), notAfter: new Date(now + 86_400_000) });
      const res = await fetch(`${publicUrl}/api/organizations/${organizations[0].organization_id}/certificates`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'must survive', certificate: pem }),
      });
      expect(res.status).toBe(201);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));

      const reopened = openDatabase({ sqliteFile: path.join(dataDir, 'portal.db') });
      const row = await reopened.selectFrom('certificates').select('description').where('distinguished_name', '=', 'CN=survivor.contoso.example').executeTakeFirst();
      const record = await reopened.selectFrom('audit_records').select('reason').where('message', 'like', '%survivor%').executeTakeFirst();
      await reopened.destroy();
      expect(row?.description).toBe('must survive');
      expect(record?.reason).toBe('CERTIFICATE_UPLOADED');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
