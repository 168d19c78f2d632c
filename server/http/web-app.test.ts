/**
 * index.html carries the nonce of its own response's CSP (the app's runtime <style> tags need it),
 * whatever path asks for it, and no cache may keep it. Assets go out as the build compressed them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NONCE_PLACEHOLDER, registerWebApp } from './web-app';
import { FIRST_SCREENS_FILE, type FirstScreensFile } from '../../common/first-screens';

const INDEX = `<!doctype html><html><head><meta property="csp-nonce" nonce="${NONCE_PLACEHOLDER}" />
<script type="module" nonce="${NONCE_PLACEHOLDER}" src="/assets/main.js"></script></head><body></body></html>`;

const MAIN_JS = `console.log(${JSON.stringify('the app '.repeat(50))});`;

describe('the web app under the strict CSP', () => {
  let app: FastifyInstance;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX);
    fs.writeFileSync(path.join(webRoot, 'assets', 'main.js'), MAIN_JS);
    // As vite.config.ts `precompress` writes them.
    fs.writeFileSync(path.join(webRoot, 'assets', 'main.js.br'), zlib.brotliCompressSync(MAIN_JS));
    fs.writeFileSync(path.join(webRoot, 'assets', 'main.js.gz'), zlib.gzipSync(MAIN_JS));
    fs.writeFileSync(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    // As scripts/web-chunks.ts writes it.
    fs.mkdirSync(path.join(webRoot, '.vite'));
    const screens: FirstScreensFile = { screens: [{ name: 'organization', paths: '^/organizations/[^/]+/certificates/?$', files: ['assets/screen-organization.js'] }] };
    fs.writeFileSync(path.join(webRoot, FIRST_SCREENS_FILE), JSON.stringify(screens));
    app = Fastify();
    app.decorate('config', { webRoot, oidc: { issuer: 'http://localhost/oidc', clientId: 'customer-portal', scope: 'openid', audience: 'api' } } as never);
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

  it("names a first screen's chunks in index.html for the paths that open it, with the nonce", async () => {
    const res = await app.inject('/organizations/x/certificates?page=2');
    const nonce = styleNonceOf(String(res.headers['content-security-policy']));
    expect(res.body).toContain(`<link rel="modulepreload" crossorigin href="/assets/screen-organization.js" nonce="${nonce}">`);
    expect((await app.inject('/organizations/x/licenses')).body).not.toContain('screen-organization');
    // The build's notes are no file to fetch.
    expect((await app.inject('/.vite/first-screens.json')).headers['content-type']).toMatch(/^text\/html/);
  });

  it('carries the sign-in settings of GET /api/config', async () => {
    const body = (await app.inject('/login')).body;
    const content = /<meta name="portal-client-settings" content="([^"]*)">/.exec(body)?.[1] ?? '';
    expect(JSON.parse(content.replaceAll('&quot;', '"'))).toEqual({ authority: 'http://localhost/oidc', client_id: 'customer-portal', scope: 'openid', audience: 'api' });
  });

  it('serves hashed assets as files, cached for good', async () => {
    const res = await app.inject('/assets/main.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    ['br, gzip, deflate', 'br', (body: Buffer) => zlib.brotliDecompressSync(body)],
    ['gzip', 'gzip', (body: Buffer) => zlib.gunzipSync(body)],
    ['identity', undefined, (body: Buffer) => body],
  ])('answers Accept-Encoding: %s with the precompressed file (%s), varying by it', async (accept, encoding, decode) => {
    const res = await app.inject({ url: '/assets/main.js', headers: { 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(decode(res.rawPayload).toString()).toBe(MAIN_JS);
  });

  it('gives the compressed copies no URL of their own', async () => {
    // An unknown path, as any other: the app's index.html, whose router shows its 404 screen.
    expect((await app.inject('/assets/main.js.br')).headers['content-type']).toMatch(/^text\/html/);
  });

  it('revalidates files without a hash in their name', async () => {
    const res = await app.inject('/favicon.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});
