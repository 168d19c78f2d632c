/**
 * What `npm run bench` generates and how hard it loads, from environment variables
 * (docs/performance.md). BENCH_SIZE=quick is about 1/20 of the full size, for development.
 */
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Sizes {
  /** Generated organizations (partners under the operator, customers under partners), besides the demo ones. */
  organizations: number;
  certificates: number;
  licenses: number;
  members: number;
  /** Journal records; half of them in the large organization. */
  journal: number;
}

export interface BenchConfig {
  size: 'full' | 'quick' | 'custom';
  sizes: Sizes;
  /** Share of certificates, licenses and members in the one large organization; journal: always half. */
  largeShare: number;
  /** Distinct real certificates made with makeCertificate; the rest reuse their PEM bodies. */
  pemPool: number;
  engine: 'sqlite' | 'postgres';
  databaseUrl?: string;
  rounds: number;
  /** Seconds of each loaded run (the bare server gets as many). */
  duration: number;
  /** Seconds of each single-client run. */
  singleDuration: number;
  connections: number;
  /** Comma-separated parts of target ids to run (development); all when empty. */
  only: string[];
  /** BENCH_GROWTH: certificates and journal records multiplied by this (10: the 10× set of issue 29's growth targets). */
  growth: number;
  /** BENCH_WRITE_RATES: the writer's rates (writes per second) of the reads-under-writes scenario. */
  writeRates: number[];
  /** BENCH_GROWTH_REPEATS: write-then-read pairs per request of the growth scenario. */
  growthRepeats: number;
  /** A run that pushes the portal's RSS past this is stopped and the portal restarted. */
  rssAbortMb: number;
  regenerate: boolean;
  cacheDir: string;
  resultsDir: string;
}

const FULL: Sizes = { organizations: 5_000, certificates: 100_000, licenses: 50_000, members: 20_000, journal: 1_000_000 };
const QUICK: Sizes = { organizations: 250, certificates: 5_000, licenses: 2_500, members: 1_000, journal: 50_000 };

function count(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text.replace(/_/g, ''));
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number of at least ${min}, not ${JSON.stringify(text)}`);
  return value;
}

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const sizeName = (env.BENCH_SIZE ?? 'full').toLowerCase();
  if (sizeName !== 'full' && sizeName !== 'quick') throw new Error(`BENCH_SIZE must be full or quick, not ${JSON.stringify(env.BENCH_SIZE)}`);
  const base = sizeName === 'quick' ? QUICK : FULL;
  const sizes: Sizes = {
    organizations: count(env, 'BENCH_ORGS', base.organizations, 2),
    certificates: count(env, 'BENCH_CERTIFICATES', base.certificates, 10),
    licenses: count(env, 'BENCH_LICENSES', base.licenses, 10),
    members: count(env, 'BENCH_MEMBERS', base.members, 10),
    journal: count(env, 'BENCH_AUDIT', base.journal, 10),
  };
  const growth = count(env, 'BENCH_GROWTH', 1, 1);
  sizes.certificates *= growth;
  sizes.journal *= growth;
  const custom = (Object.keys(sizes) as (keyof Sizes)[]).some((k) => sizes[k] !== base[k]);
  const quick = sizeName === 'quick';
  const databaseUrl = env.BENCH_DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('BENCH_DATABASE_URL must be a postgres:// URL');
  return {
    size: custom ? 'custom' : quick ? 'quick' : 'full',
    sizes,
    largeShare: 0.2,
    pemPool: count(env, 'BENCH_PEM_POOL', quick ? 50 : 300, 1),
    engine: databaseUrl ? 'postgres' : 'sqlite',
    databaseUrl,
    rounds: count(env, 'BENCH_ROUNDS', 3, 1),
    duration: count(env, 'BENCH_DURATION', quick ? 2 : 5, 1),
    singleDuration: count(env, 'BENCH_SINGLE_DURATION', quick ? 1 : 3, 1),
    connections: count(env, 'BENCH_CONNECTIONS', 50, 1),
    only: (env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    growth,
    writeRates: (env.BENCH_WRITE_RATES ?? '1,10,50').split(',').map((s) => Number(s.trim())).filter((n) => n > 0),
    growthRepeats: count(env, 'BENCH_GROWTH_REPEATS', quick ? 10 : 20, 1),
    rssAbortMb: count(env, 'BENCH_RSS_ABORT_MB', 2048, 100),
    regenerate: env.BENCH_REGENERATE === '1' || env.BENCH_REGENERATE === 'true',
    cacheDir: path.resolve(ROOT, env.BENCH_CACHE_DIR ?? '.bench-cache'),
    resultsDir: path.resolve(ROOT, env.BENCH_RESULTS_DIR ?? 'bench-results'),
  };
}
