/**
 * `npm start` runs the server from its bundle (scripts/build-server.mjs), not from the sources the
 * other tests import: this runs that bundle as a child process on a fresh SQLite database with demo
 * data and checks what lives outside the bundle's own code: the sign-in page's stylesheet (read
 * from the sources), the demo seed (a chunk loaded only then) and the certificate archive (its
 * worker is a second entry of the bundle), and that SIGTERM closes it, the archive's files removed.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openDatabase } from '../../server/db/database';
import { loadConfig } from '../../server/config';
import { buildServer } from '../../scripts/build-server.mjs';
import { signToken } from '../support/tokens';
import { freePort, waitFor } from '../support/processes';

/** The packages a bundle file imports statically, with those of the chunks it imports statically. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?from\s*"([^"]+)"/gm)) {
    if (name!.startsWith('.')) for (const p of staticImports(path.resolve(path.dirname(file), name!), seen)) packages.add(p);
    else packages.add(name!);
  }
  return packages;
}

describe('the bundle npm start runs', () => {
  it('starts, seeds, serves the sign-in page with its stylesheet and builds the archive in its worker', async () => {
    // Inside the project, where the bundle's imports find node_modules, as dist/server does.
    fs.mkdirSync(path.resolve('dist'), { recursive: true });
    const runDir = fs.mkdtempSync(path.resolve('dist', 'bundle-test-'));
    const main: string = await buildServer(path.join(runDir, 'server'));
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const dataDir = path.join(runDir, 'data');
    // Its own temporary directory, where the archive's builder keeps its files (os.tmpdir() reads TMPDIR).
    const tmpDir = path.join(runDir, 'tmp');
    fs.mkdirSync(tmpDir);
    const env = { ...process.env, PORT: String(port), PUBLIC_URL: publicUrl, DATA_DIR: dataDir, TMPDIR: tmpDir, LOG_LEVEL: 'silent', NODE_ENV: 'development' };
    // What the start loads before it listens: not the modules loaded only when needed (the sign-in provider once the
    // portal is ready, mail with SMTP_URL, node-postgres with DATABASE_URL; docs/decisions.md "Start-up and metrics").
    const loadedAtStart = staticImports(main);
    for (const later of ['oidc-provider', 'nodemailer', 'pg']) expect(loadedAtStart).not.toContain(later);
    expect(loadedAtStart).toContain('fastify');
    const child = spawn(process.execPath, [main], { env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(`${publicUrl}/readyz`, 60_000);
      // The sign-in provider is loaded once the portal is ready (auth/idp/provider.ts): it answers all the same.
      const discovery = await fetch(`${publicUrl}/oidc/.well-known/openid-configuration`);
      expect(discovery.status).toBe(200);
      expect((await discovery.json()).issuer).toBe(`${publicUrl}/oidc`);
      const css = await fetch(`${publicUrl}/oidc-assets/login.css`);
      expect(css.status).toBe(200);
      expect(await css.text()).toMatch(/[a-z-]+\s*\{/);

      const db = openDatabase({ sqliteFile: path.join(dataDir, 'portal.db') });
      const config = loadConfig({ PORT: String(port), PUBLIC_URL: publicUrl, NODE_ENV: 'test' });
      const token = await signToken(db, { email: 'devops@operator.example', email_verified: true }, { issuer: config.oidc.issuer, audience: config.oidc.audience });
      await db.destroy();
      const archive = await fetch(`${publicUrl}/api/piston/certs`, { headers: { authorization: `Bearer ${token}` } });
      expect(archive.status).toBe(200);
      const tar = gunzipSync(Buffer.from(await archive.arrayBuffer()));
      const manifest = JSON.parse(tar.subarray(512, tar.indexOf(0, 512)).toString('utf8'));
      expect(manifest.certificates.length).toBeGreaterThan(0);
      expect(fs.readdirSync(tmpDir).filter((name) => name.startsWith('portal-archive-'))).toHaveLength(1);

      // A graceful shutdown closes the app: the builder's child stops and its folder goes.
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(fs.readdirSync(tmpDir)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(runDir, { recursive: true, force: true });
    }
  }, 90_000);
});
