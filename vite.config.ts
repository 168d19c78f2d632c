/**
 * The web app: root web/, built into dist/web, which the server serves (server/http/web-app.ts).
 * `html.cspNonce` puts a placeholder nonce on the tags Vite writes and in
 * <meta property="csp-nonce">; the server swaps in each response's nonce, so Mantine's
 * runtime <style> tags can carry it under the strict CSP (style-src 'self' 'nonce-…').
 */
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const backend = 'http://localhost:8080';

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'web'),
  plugins: [react()],
  html: { cspNonce: 'CSP_NONCE_PLACEHOLDER' },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
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
