/**
 * Issue 29's scenarios of real use, after the per-URL targets: (a) spread readers, (b) the same under
 * a writer at each of BENCH_WRITE_RATES, (c) gateways under 10 writes/s, (d) closed-loop writers in 20
 * organizations and in the large one, (e) growth, and the exports. Each runs once per bench run (BENCH_ROUNDS is
 * the per-URL targets'); BENCH_ONLY picks them by id (`writes` is every rate, `writes-10` one).
 */
import { runBrowse, type BrowseRun } from './browse';
import type { PreparedDatabase } from './database';
import { runExports, type ExportsRun } from './exports';
import { runGateways, type GatewaysRun } from './gateways';
import { runGrowth, type GrowthRun } from './growth';
import type { Stage } from './loaded';
import { makePemPool } from './pems';
import { organizationsWithPeople, staff, type Organization } from './people';
import { browseChecks, exportsChecks, gatewayChecks, growthChecks, spreadChecks, writersChecks, type Check } from './real-use-targets';
import { readMix, runSpread, type SpreadRun } from './spread';
import { runWriters, type WritersRun } from './writers';
import { makeWrites } from './writes';

export interface RealUseResults {
  mix?: { organizations: number; people: number; requests: number; refused: string[] };
  spread: SpreadRun[];
  gateways?: GatewaysRun;
  writers: WritersRun[];
  growth?: GrowthRun;
  exports?: ExportsRun;
  browse?: BrowseRun;
  checks: Check[];
  pemsMadeDuringRuns: number;
}

function scenarioIds(writeRates: number[]): string[] {
  return ['spread', ...writeRates.map((r) => `writes-${r}`), 'gateways', 'writers-many', 'writers-one', 'growth', 'exports', 'browse'];
}

export function selected(only: string[], id: string): boolean {
  return only.length === 0 || only.some((o) => o === id || id.startsWith(`${o}-`));
}

/** 20 writers in the large organization, each one of its own ISSUERs (or APPROVERs). */
function largeWriters(large: Organization, count: number): Organization[] {
  const uploaders = large.people.filter((p) => p.role === 'ISSUER' || p.role === 'APPROVER');
  return Array.from({ length: count }, (_, i) => ({ id: large.id, people: uploaders.length ? [uploaders[i % uploaders.length]] : [] }));
}

export async function runRealUse(stage: Stage, database: PreparedDatabase, gatewayBearer: string): Promise<RealUseResults> {
  const { config } = stage;
  const engine = config.engine;
  const run = (id: string) => selected(config.only, id);
  const results: RealUseResults = { spread: [], writers: [], checks: [], pemsMadeDuringRuns: 0 };
  if (!scenarioIds(config.writeRates).some(run)) return results;

  const url = stage.portal.current.url;
  const issuer = `${url}/oidc`;
  const people = await staff(database, issuer);
  const organizations = await organizationsWithPeople(database, issuer, Number(process.env.BENCH_READER_ORGS ?? 1_000));
  const pems = await makePemPool(`${process.pid.toString(16)}${Date.now().toString(16).slice(-6)}`);
  const writes = await makeWrites(url, database, people, pems);
  const large = organizations[0];
  const spreadOver = organizations.slice(1);
  /** Uploads are a fifth of (b)'s writes; (d) uploads half its writes, a few hundred a second at most. */
  const fill = (uploads: number) => pems.fill(Math.ceil(uploads * 1.2) + 20);

  if (['spread', ...config.writeRates.map((r) => `writes-${r}`), 'gateways'].some(run)) {
    stage.log('Real use: spread readers (probing each kind of read for each role once)');
    const mix = await readMix(url, organizations, [people.supervisor, people.approver]);
    results.mix = { organizations: mix.organizations, people: mix.people, requests: mix.reads.length, refused: mix.refused };
    stage.log(`  ${mix.reads.length} reads by ${mix.people} people in ${mix.organizations} organizations${mix.refused.length ? `; refused, left out: ${mix.refused.join(', ')}` : ''}`);
    const rates = [...(run('spread') ? [0] : []), ...config.writeRates.filter((r) => run(`writes-${r}`))];
    for (const rate of rates) {
      await fill((rate * config.duration) / 5);
      results.spread.push(await runSpread(stage, mix, rate, writes, spreadOver));
    }
  }
  if (run('gateways')) {
    await fill((10 * config.duration) / 5);
    results.gateways = await runGateways(stage, gatewayBearer, writes, spreadOver);
  }
  for (const [id, name, writers] of [
    ['writers-many', '20 writers in 20 organizations', spreadOver.filter((o) => o.people.some((p) => p.role === 'ISSUER' || p.role === 'APPROVER')).slice(0, 20)],
    ['writers-one', '20 writers in the one large organization', largeWriters(large, 20)],
  ] as const) {
    if (!run(id)) continue;
    await fill(250 * config.duration);
    results.writers.push(await runWriters(stage, database, writes, name, [...writers]));
  }
  if (run('growth')) {
    stage.log(`Growth: single client, first request after a write (${config.growthRepeats} times each)`);
    results.growth = await runGrowth(stage, database, writes, large, people.supervisor, gatewayBearer);
  }
  if (run('exports')) {
    stage.log('Exports: one client, gzip accepted');
    results.exports = await runExports(stage, database.facts, people.supervisor);
  }
  if (run('browse')) {
    stage.log('A person browsing while 10 writes/s happen (Chromium, the supervisor)');
    await fill((10 * 120) / 5);
    results.browse = await runBrowse(stage, database, writes, organizations);
  }
  results.pemsMadeDuringRuns = pems.madeLate;
  results.checks = [
    ...results.spread.flatMap((s) => spreadChecks(s, engine)),
    ...(results.gateways ? gatewayChecks(results.gateways, engine) : []),
    ...results.writers.flatMap((w) => writersChecks(w, engine)),
    ...(results.growth ? growthChecks(results.growth, config.growth) : []),
    ...(results.exports ? exportsChecks(results.exports) : []),
    ...(results.browse ? browseChecks(results.browse, engine) : []),
  ];
  return results;
}
