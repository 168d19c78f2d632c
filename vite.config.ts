/**
 * The web app: root web/, built into dist/web, which the server serves (server/http/web-app.ts).
 * `html.cspNonce` puts a placeholder nonce on the tags Vite writes and in
 * <meta property="csp-nonce">; the server swaps in each response's nonce, so Mantine's
 * runtime <style> tags can carry it under the strict CSP (style-src 'self' 'nonce-…').
 * `precompress` writes a .br and a .gz beside each text file for the server to send as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { firstScreenChunks } from './scripts/web-chunks.js';

const backend = 'http://localhost:8080';

/**
 * The screens people open first, by the route modules web/router.tsx loads for them: the sign-in
 * screen, and an organization's Certificates (the first screen after sign-in). scripts/web-budget.mjs
 * measures the same two.
 */
const firstScreens = firstScreenChunks(import.meta.dirname, [
  { name: 'signin', routes: ['web/layouts/BareLayout.tsx', 'web/pages/welcome/WelcomePage.tsx'], paths: '^/(login)?$' },
  {
    name: 'organization',
    routes: ['web/layouts/DefaultLayout.tsx', 'web/features/certificates/CertificatesPage.tsx'],
    paths: '^/organizations/[^/]+/certificates/?$',
  },
]);

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Compresses the build once, at the highest levels (too slow per request, free at build time):
 * every script, stylesheet and SVG gets a .br and a .gz beside it, which @fastify/static sends by
 * the browser's Accept-Encoding (server/http/web-app.ts). index.html is left out: the server
 * writes a nonce into it per response. Source maps too: only developer tools fetch them; and
 * .vite/, the build's notes for the server, which it never sends.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = fs
        .readdirSync(outDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(js|mjs|css|svg|json|txt)$/.test(entry.name) && !entry.parentPath.includes(`${path.sep}.vite`))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const bytes = fs.readFileSync(file);
          const [br, gz] = await Promise.all([
            brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
            gzip(bytes, { level: 9 }),
          ]);
          // A file too small to gain is sent as it is.
          if (br.length < bytes.length) fs.writeFileSync(`${file}.br`, br);
          if (gz.length < bytes.length) fs.writeFileSync(`${file}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'web'),
  plugins: [react(), firstScreens.plugin, precompress()],
  html: { cspNonce: 'CSP_NONCE_PLACEHOLDER' },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The libraries every screen loads before it renders (react, react-dom, the router,
          // TanStack Query, Mantine's core) in one chunk of their own: fewer files on the first load
          // (gzip compresses one file better than a dozen), and a chunk that only changes with an
          // upgrade, so a new release of the app leaves it in the browser's cache. Then what the
          // first screens use (scripts/web-chunks.ts); everything else is split by route as
          // Rolldown does by itself.
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'], priority: 2 },
            // The app's own modules of the entry, together too: lazy chunks import some of them,
            // which would otherwise split each into a file of its own.
            { name: 'app', tags: ['$initial'], priority: 1 },
            ...firstScreens.groups,
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/oidc': { target: backend, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/oidc': { target: backend, changeOrigin: false },
    },
  },
});
