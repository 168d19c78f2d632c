/**
 * (c) Gateways under writes: each connection is one download gateway polling routes.hcl and the
 * certificate archive in turn with If-None-Match of its own last answer of each (updated whenever it
 * gets a 200), while the writer of (b) makes 10 writes per second in other organizations. Reports the
 * 304s as a share of bare Fastify, the bytes sent, and how many full archives each gateway got: one
 * per change of the archive is right, the same archive twice is not.
 */
import type { RequestSource } from './load';
import { describeRun, loadedRun, type LoadedRun, type Stage } from './loaded';
import type { Organization } from './people';
import { describeWriter, openLoopWriter, type WriterReport } from './writer';
import type { Writes } from './writes';

const PATHS = ['/api/piston/routes.hcl', '/api/piston/certs'];

interface Gateway {
  etags: Map<string, string>;
  /** Full archives (200s of /certs) and those it had already had. */
  archives: number;
  repeats: number;
  seen: Set<string>;
}

export interface GatewaysRun {
  run: LoadedRun<WriterReport | undefined>;
  /** 304s per second as a share of bare Fastify's answers per second. */
  notModifiedRatio: number;
  notModified: number;
  full: number;
  megabytes: number;
  archivesPerGateway: { min: number; median: number; max: number };
  /** Distinct archives (ETags) the gateways got: the changes they saw. */
  archiveVersions: number;
  /** Full archives a gateway got although it had that one already. */
  repeatedArchives: number;
}

function gatewaySource(gateway: Gateway, bearer: string): RequestSource {
  let turn = 0;
  let asked = PATHS[0];
  return {
    next() {
      asked = PATHS[turn++ % PATHS.length];
      const etag = gateway.etags.get(asked);
      return { path: asked, headers: { authorization: `Bearer ${bearer}`, ...(etag ? { 'if-none-match': etag } : {}) } };
    },
    answered(status, headers) {
      if (status !== 200 || !headers.etag) return;
      gateway.etags.set(asked, headers.etag);
      if (asked !== PATHS[1]) return;
      gateway.archives++;
      if (gateway.seen.has(headers.etag)) gateway.repeats++;
      gateway.seen.add(headers.etag);
    },
  };
}

export async function runGateways(stage: Stage, gatewayBearer: string, writes: Writes, organizations: Organization[], connections = 50): Promise<GatewaysRun> {
  const gateways: Gateway[] = Array.from({ length: connections }, () => ({ etags: new Map(), archives: 0, repeats: 0, seen: new Set() }));
  const writer = openLoopWriter(writes, organizations, 10);
  // Each gateway starts as one that has been running: it holds the current answers' ETags.
  for (const gateway of gateways.slice(0, 1)) {
    for (const path of PATHS) {
      const response = await fetch(`${stage.portal.current.url}${path}`, { headers: { authorization: `Bearer ${gatewayBearer}` }, signal: AbortSignal.timeout(300_000) });
      await response.arrayBuffer();
      const etag = response.headers.get('etag');
      if (etag) for (const g of gateways) g.etags.set(path, etag);
    }
    gateway.seen.clear();
  }
  for (const g of gateways) g.seen.add(g.etags.get(PATHS[1]) ?? '');
  const run = await loadedRun<WriterReport | undefined>(stage, { source: (i) => gatewaySource(gateways[i], gatewayBearer), connections, expect: [200, 304] }, writer);
  const notModified = run.portal.statuses['304'] ?? 0;
  const archives = gateways.map((g) => g.archives).sort((a, b) => a - b);
  const versions = new Set(gateways.flatMap((g) => [...g.seen])).size - 1;
  const result: GatewaysRun = {
    run, notModified, full: run.portal.statuses['200'] ?? 0,
    notModifiedRatio: notModified / run.portal.seconds / run.bare.rps,
    megabytes: run.portal.bytes / 2 ** 20,
    archivesPerGateway: { min: archives[0], median: archives[Math.floor(archives.length / 2)], max: archives.at(-1)! },
    archiveVersions: versions,
    repeatedArchives: gateways.reduce((n, g) => n + g.repeats, 0),
  };
  stage.log(describeRun('gateways under 10 writes/s', run));
  stage.log(`    304s ${(result.notModifiedRatio * 100).toFixed(1)} % of bare, ${result.full} full answers, ${result.megabytes.toFixed(1)} MB sent; ` +
    `full archives per gateway ${archives[0]}–${archives.at(-1)} for ${versions} new archives, ${result.repeatedArchives} repeated`);
  if (run.beside) stage.log(describeWriter(run.beside));
  return result;
}
