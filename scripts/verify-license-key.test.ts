/**
 * README's `npx tsx scripts/verify-license-key.ts KEY_FILE` when no portal answers at the address: the error names the
 * address it tried and PORTAL_URL (issue 34 defect 6), where fetch alone says "fetch failed".
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('verify-license-key without a public key file', () => {
  it('names the address it tried and PORTAL_URL when the portal does not answer', async () => {
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verify-key-')), 'key.txt');
    fs.writeFileSync(keyFile, 'not a key');
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', 'scripts/verify-license-key.ts', keyFile], { env: { ...process.env, PORTAL_URL: url } }, (_error, _stdout, stderr) =>
        resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(code).toBe(2);
    expect(stderr).toContain(`cannot reach the portal at ${url}/api/licenses/public-key`);
    expect(stderr).toContain('set PORTAL_URL');
    expect(stderr).toContain('ECONNREFUSED');
  });
});

describe('README', () => {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');

  it('says where verify-license-key fetches the public key and how to name another address', () => {
    const row = readme.split('\n').find((line) => line.includes('scripts/verify-license-key.ts KEY_FILE'));
    expect(row).toContain('PORTAL_URL');
    expect(row).toContain('http://localhost:8080');
  });

  it("says that the first start builds the web app and how long that takes (issue 34 defect 7)", () => {
    const intro = readme.slice(0, readme.indexOf('## '));
    expect(intro).toMatch(/first `npm start`[^.]*builds the web app/);
    expect(intro).toMatch(/up to a\s+minute/);
  });
});
