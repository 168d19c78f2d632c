/**
 * A webhook outlives a killed process (issue 13): a portal without its notification jobs answers a
 * change, so its event waits in the outbox; the process is killed with SIGKILL; the portal started
 * again delivers the event to the receiver, signed, exactly once.
 */
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { openDatabase } from '../../server/db/database';
import { signToken } from '../support/tokens';
import { makeCertificate } from '../../scripts/make-certificate';
import { loadConfig } from '../../server/config';
import { freePort, waitFor } from '../support/processes';

describe('a killed process and its webhooks', () => {
  it('delivers the event of a change answered before the kill, once, after the restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-webhook-kill-'));
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const received: Array<{ id: string; type: string; verified: boolean }> = [];
    let secret = '';
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let verified = true;
        try {
          new Webhook(secret).verify(raw, request.headers as Record<string, string>);
        } catch {
          verified = false;
        }
        received.push({ id: String(request.headers['webhook-id']), type: (JSON.parse(raw) as { type: string }).type, verified });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const start = (notifications: 'on' | 'off') => spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, PORT: String(port), PUBLIC_URL: publicUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'development', NOTIFICATIONS: notifications, WEBHOOK_ALLOW_PRIVATE: 'true' },
      stdio: 'ignore',
    });
    const kill = async (child: ChildProcess) => {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    };
    let child = start('off');
    try {
      await waitFor(`${publicUrl}/readyz`, 60_000);
      const db = openDatabase({ sqliteFile: path.join(dataDir, 'portal.db') });
      const config = loadConfig({ PORT: String(port), PUBLIC_URL: publicUrl, NODE_ENV: 'test' });
      const headers = async (email: string) => ({
        authorization: `Bearer ${await signToken(db, { email, email_verified: true }, { issuer: config.oidc.issuer, audience: config.oidc.audience })}`,
        'content-type': 'application/json',
      });
      const northwind = (await db.selectFrom('organizations').select('organization_id').where('organization_name', 'like', 'Northwind%').executeTakeFirstOrThrow()).organization_id;
      const admin = await headers('admin@northwind.example');
      const issuer = await headers('issuer@northwind.example');
      await db.destroy();

      const registered = await fetch(`${publicUrl}/api/organizations/${northwind}/webhooks`, {
        method: 'POST', headers: admin,
        body: JSON.stringify({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['certificate.uploaded'] }),
      });
      expect(registered.status).toBe(201);
      secret = ((await registered.json()) as { secret: string }).secret;
      const now = Date.now();
      const { pem } = await makeCertificate({ subject: 'CN=outbox.northwind.example', notBefore: new Date(now), notAfter: new Date(now + 86_400_000) });
      const uploaded = await fetch(`${publicUrl}/api/organizations/${northwind}/certificates`, { method: 'POST', headers: issuer, body: JSON.stringify({ description: 'told after the kill', certificate: pem }) });
      expect(uploaded.status).toBe(201);
      await kill(child);
      expect(received).toEqual([]);

      child = start('on');
      await waitFor(`${publicUrl}/readyz`, 60_000);
      for (let waited = 0; received.length === 0 && waited < 30_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
      // A few more rounds of the sender (every 2 s): nothing comes twice.
      await new Promise((r) => setTimeout(r, 5_000));
      expect(received).toEqual([{ id: expect.stringMatching(/^msg_/), type: 'certificate.uploaded', verified: true }]);
    } finally {
      await kill(child);
      await new Promise((resolve) => receiver.close(resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
