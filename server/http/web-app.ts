/**
 * Serves the built single-page app: hashed assets as files, and index.html for every other
 * browser path (the app's router decides, unknown paths land on its /404 screen).
 * index.html gets this response's CSP nonces: the style-src one, which the app's runtime <style> tags
 * need (Mantine's, and react-remove-scroll's in dialogs, web/main.tsx), and the script-src one for
 * its one inline script, which sets the colour scheme before the first paint (web/index.html).
 *
 * Assets go out compressed as the build wrote them (vite.config.ts writes a .br and a .gz beside
 * each): nothing is compressed per request, so no CPU is spent on the event loop for it. Hashed
 * files under assets/ are cached for good; anything else (favicon.svg) is revalidated.
 *
 * For the paths of the first screens (the sign-in screen, an organization's Certificates),
 * index.html also names the screen's chunks (common/first-screens.ts), so the browser fetches them
 * with the entry rather than once the entry has run and the router asks for them. And it carries
 * the sign-in settings of GET /api/config (<meta name="portal-client-settings">), so the sign-in
 * screens need not ask for them before they can ask the provider.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { PROJECT_ROOT } from '../paths';
import { clientSettingsOf } from '../config';
import { FIRST_SCREENS_FILE, type FirstScreensFile } from '../../common/first-screens';
import { STYLESHEET_PATH } from '../auth/idp/login-page';

/** The placeholder Vite writes (vite.config.ts `html.cspNonce`). */
export const NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';
/** The placeholder of index.html's inline script (the colour scheme before the first paint). */
export const SCRIPT_NONCE_PLACEHOLDER = 'CSP_SCRIPT_NONCE_PLACEHOLDER';
/** Vite names every file under assets/ by a hash of its content: a new build never reuses a name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export async function registerWebApp(app: FastifyInstance): Promise<void> {
  const webRoot = path.resolve(PROJECT_ROOT, app.config.webRoot);
  const indexFile = path.join(webRoot, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    // index.html is no file to serve as it is: /index.html, like every app path, gets it with a nonce below.
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: '/',
      wildcard: false,
      index: false,
      // The compressed copies are no URLs of their own: /assets/x.js answers with x.js.br or x.js.gz.
      globIgnore: ['index.html', '**/*.br', '**/*.gz'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // The same URL answers br, gzip or plain bytes by Accept-Encoding: caches must key on it.
        res.setHeader('vary', 'Accept-Encoding');
        const hashed = path.relative(webRoot, filePath).startsWith(`assets${path.sep}`);
        res.setHeader('cache-control', hashed ? IMMUTABLE : 'no-cache');
      },
    });
  }
  const indexHtml = built ? withClientSettings(fs.readFileSync(indexFile, 'utf8'), app) : null;
  // The sign-in screen leaves for the built-in provider's page at once: its stylesheet is fetched
  // ahead, so that page does not wait for it.
  const signInExtras = app.config.oidc.builtIn ? [`<link rel="prefetch" href="${STYLESHEET_PATH}">`] : [];
  const screens = indexHtml ? firstScreenIndexes(webRoot, indexHtml, { signin: signInExtras }) : [];

  const sendIndex = (reply: FastifyReply, url: string) => {
    if (!indexHtml) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    const pathname = url.split('?')[0];
    const html = screens.find((screen) => screen.paths.test(pathname))?.html ?? indexHtml;
    const nonces = (reply as FastifyReply & { cspNonce?: { script: string; style: string } }).cspNonce;
    // The nonces are good for this response only: no cache, in the browser or between, may keep them.
    const page = html.replaceAll(SCRIPT_NONCE_PLACEHOLDER, nonces?.script ?? '').replaceAll(NONCE_PLACEHOLDER, nonces?.style ?? '');
    return reply.type('text/html').header('cache-control', 'no-store').send(page);
  };

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const apiLike = /^\/(api|oidc)(\/|$)/.test(request.url);
    if (apiLike || request.method !== 'GET') {
      return reply.status(404).send({ message: 'Not found.', severity: 'ERROR' });
    }
    return sendIndex(reply, request.url);
  });
}

const escapeAttribute = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The public sign-in settings in index.html, as GET /api/config answers them (web/lib/client-settings.ts). */
function withClientSettings(indexHtml: string, app: FastifyInstance): string {
  const meta = `    <meta name="portal-client-settings" content="${escapeAttribute(JSON.stringify(clientSettingsOf(app.config)))}">\n`;
  return indexHtml.replace('</head>', `${meta}  </head>`);
}

/** index.html for each first screen, with its chunks named; none without the build's list. */
function firstScreenIndexes(webRoot: string, indexHtml: string, extras: Record<string, string[]>): Array<{ paths: RegExp; html: string }> {
  const file = path.join(webRoot, FIRST_SCREENS_FILE);
  if (!fs.existsSync(file)) return [];
  const { screens } = JSON.parse(fs.readFileSync(file, 'utf8')) as FirstScreensFile;
  return screens.map((screen) => {
    const links = [
      ...screen.files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}" nonce="${NONCE_PLACEHOLDER}">`),
      ...(extras[screen.name] ?? []),
    ]
      .map((link) => `    ${link}\n`)
      .join('');
    return { paths: new RegExp(screen.paths), html: indexHtml.replace('</head>', `${links}  </head>`) };
  });
}
