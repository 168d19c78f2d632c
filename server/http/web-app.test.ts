/**
 * index.html carries the nonce of its own response's CSP (the app's runtime <style> tags need it),
 * whatever path asks for it, and no cache may keep it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NONCE_PLACEHOLDER, registerWebApp } from './web-app';

const INDEX = `<!doctype html><html><head><meta property="csp-nonce" nonce="${NONCE_PLACEHOLDER}" />
<script type="module" nonce="${NONCE_PLACEHOLDER}" src="/assets/main.js"></script></head><body></body></html>`;

describe('the web app under the strict CSP', () => {
  let app: FastifyInstance;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX);
    fs.writeFileSync(path.join(webRoot, 'assets', 'main.js'), 'console.log(1);');
    app = Fastify();
    app.decorate('config', { webRoot } as never);
    // As server/app.ts registers it.
    await app.register(helmet, { enableCSPNonces: true, contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], styleSrc: ["'self'"] } } });
    await registerWebApp(app);
  });

  afterAll(async () => {
    await app.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  const styleNonceOf = (csp: string) => /style-src [^;]*'nonce-([^']+)'/.exec(csp)?.[1];

  it.each(['/', '/index.html', '/organizations/x/certificates'])('answers %s with a fresh nonce that the CSP names, never stored', async (url) => {
    const first = await app.inject(url);
    const second = await app.inject(url);
    for (const res of [first, second]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      const nonce = styleNonceOf(String(res.headers['content-security-policy']));
      expect(nonce).toMatch(/^[0-9a-f]{16,}$/);
      expect(res.body).toContain(`<meta property="csp-nonce" nonce="${nonce}" />`);
      expect(res.body).not.toContain(NONCE_PLACEHOLDER);
    }
    expect(styleNonceOf(String(first.headers['content-security-policy']))).not.toBe(styleNonceOf(String(second.headers['content-security-policy'])));
  });

  it('serves hashed assets as files, cached for good', async () => {
    const res = await app.inject('/assets/main.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });
});
