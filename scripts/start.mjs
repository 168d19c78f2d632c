#!/usr/bin/env node
// `npm start`. The portal runs in this very process (dist/server/main.mjs, imported below), and package.json starts
// it with `exec`, so nothing stands between npm and the portal: npm passes SIGTERM and SIGINT on to this process,
// which ends gracefully (server/main.ts). Without `exec` the shell npm starts the script in died of the signal and
// the portal went on as an orphan. The Node options (memory settings, source maps) are in package.json for the same
// reason: no second Node process to pass them to.
//
// NODE_ENV=production: runs what `npm run build` built and nothing else. No build, no write into the app folder; a
// missing build, or one older than the sources beside it (scripts/build-stamp.mjs), stops the start naming
// `npm run build`. Otherwise, in a checkout (a developer's, a first `npm install && npm start`): builds the web app
// when it is missing or its sources changed, and the server every time (under a second), then runs it.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_PARTS, sourcesHash, stampOf } from './build-stamp.mjs';

const root = path.resolve(import.meta.dirname, '..');
const serverDir = path.join(root, 'dist/server');
const defaultWebRoot = path.join(root, 'dist/web');
// As server/config.ts reads it: relative to the project folder.
const webRoot = process.env.WEB_ROOT ? path.resolve(root, process.env.WEB_ROOT) : defaultWebRoot;

/** Why the build cannot run in production, or undefined when it can. */
function productionBuildProblem() {
  const rebuild = 'Run `npm run build` (it builds the web app and the server into dist/), then start again.';
  const missing = [path.join(serverDir, 'main.mjs'), path.join(webRoot, 'index.html')].filter((file) => !fs.existsSync(file));
  if (missing.length > 0) {
    return `NODE_ENV=production runs the built portal only, and the build is missing (${missing.map((f) => path.relative(root, f)).join(', ')}). ${rebuild}`;
  }
  const stale = [['server', serverDir], ...(webRoot === defaultWebRoot ? [['web', webRoot]] : [])]
    .filter(([part, dir]) => {
      const hash = sourcesHash(root, part);
      return hash !== undefined && hash !== stampOf(dir);
    })
    .map(([part, dir]) => `the sources of ${path.relative(root, dir)} (${BUILD_PARTS[part].inputs.join(', ')})`);
  if (stale.length > 0) {
    return `NODE_ENV=production runs the built portal only, and its build is out of date: ${stale.join(' and ')} changed since it was built. ${rebuild}`;
  }
  return undefined;
}

if (process.env.NODE_ENV === 'production') {
  const problem = productionBuildProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
} else if (fs.existsSync(path.join(root, BUILD_PARTS.server.present))) {
  // A runtime-only install (npm ci --omit=dev) has no Vite: it runs its build in production.
  if (!fs.existsSync(path.join(root, 'node_modules/vite/bin/vite.js'))) {
    console.error('Outside production `npm start` builds the portal first, which needs the development dependencies: run `npm install`. '
      + 'A runtime-only install (npm ci --omit=dev) runs its build with NODE_ENV=production.');
    process.exit(1);
  }
  // Loaded only here: a production start loads no build tool.
  const builders = { ...(await import('./build.mjs')), ...(await import('./build-server.mjs')) };
  try {
    if (webRoot === defaultWebRoot && (!fs.existsSync(path.join(webRoot, 'index.html')) || stampOf(webRoot) !== sourcesHash(root, 'web'))) {
      console.log('Building the web app (a first start, or its sources changed): 15 s to a minute…');
      await builders.buildWeb();
    }
    await builders.buildServer();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
// Else a release without its sources (the image) outside production, to look around with the demo data: it runs as built.

await import(pathToFileURL(path.join(serverDir, 'main.mjs')).href);
