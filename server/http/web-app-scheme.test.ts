/**
 * index.html's one inline script (it sets the colour scheme before the first paint, web/index.html)
 * runs under the strict CSP: it carries this response's script-src nonce, the <style>-bound tags
 * keep the style-src one, and no placeholder is left.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NONCE_PLACEHOLDER, registerWebApp, SCRIPT_NONCE_PLACEHOLDER } from './web-app';

const INDEX = `<!doctype html><html data-mantine-color-scheme="light"><head><meta property="csp-nonce" nonce="${NONCE_PLACEHOLDER}" />
<script nonce="${SCRIPT_NONCE_PLACEHOLDER}">document.documentElement.setAttribute('data-mantine-color-scheme', 'dark');</script>
<script type="module" nonce="${NONCE_PLACEHOLDER}" src="/assets/main.js"></script></head><body></body></html>`;

let app: FastifyInstance;
let webRoot: string;

beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX);
  app = Fastify();
  app.decorate('config', { webRoot, oidc: { issuer: 'http://localhost/oidc', clientId: 'customer-portal', scope: 'openid', audience: 'api' } } as never);
  // As server/app.ts registers it: scripts from the portal only, and what carries the nonce.
  await app.register(helmet, { enableCSPNonces: true, contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'"] } } });
  await registerWebApp(app);
});

afterAll(async () => {
  await app.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

it("gives index.html's inline script the script nonce of its response's CSP, fresh each time", async () => {
  const nonces = [];
  for (const url of ['/login', '/organizations/x/certificates']) {
    const res = await app.inject(url);
    const csp = String(res.headers['content-security-policy']);
    const script = /script-src [^;]*'nonce-([^']+)'/.exec(csp)?.[1];
    const style = /style-src [^;]*'nonce-([^']+)'/.exec(csp)?.[1];
    expect(script).toMatch(/^[0-9a-f]{16,}$/);
    expect(script).not.toBe(style);
    expect(res.body).toContain(`<script nonce="${script}">document.documentElement`);
    expect(res.body).toContain(`<script type="module" nonce="${style}"`);
    expect(res.body).not.toContain('PLACEHOLDER');
    nonces.push(script);
  }
  expect(nonces[0]).not.toBe(nonces[1]);
});
