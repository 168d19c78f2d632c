/**
 * (a) Spread readers, and (b) the same under a writer: the read mix of real use (an organization's
 * certificates, licenses, members, journal at several depths, the organization, its overview, the
 * caller's notices, one member, and the staff's pending approvals) across many organizations, each
 * read by its own people with their own tokens. Every request of the load takes the next of a shuffled
 * list, so consecutive requests are different people in different organizations.
 */
import type { LoadedRun, Stage } from './loaded';
import { describeRun, loadedRun } from './loaded';
import type { PlannedRequest } from './load';
import type { Organization } from './people';
import { describeWriter, openLoopWriter, type WriterReport } from './writer';
import type { Writes } from './writes';

/** As the web app's browser asks (Chromium's Accept-Encoding). */
const ACCEPT = 'gzip, deflate, br, zstd';

interface Read extends PlannedRequest {
  /** What is read, and by which role: the pairs the portal refuses are left out (and named). */
  kind: string;
  role: string;
}

function readsOf(organization: Organization): Read[] {
  const at = `/api/organizations/${organization.id}`;
  const page = 'offset=0&limit=100';
  const reads: Read[] = [];
  organization.people.forEach((person, i) => {
    const other = organization.people[(i + 1) % organization.people.length];
    const paths: [string, string][] = [
      ['certificates', `${at}/certificates?${page}`],
      ['licenses', `${at}/licenses?${page}`],
      ['members', `${at}/members?${page}`],
      ...[0, 100, 1_000].map((offset): [string, string] => [`journal-${offset}`, `${at}/auditrecords?offset=${offset}&limit=100`]),
      ['organization', at],
      ['overview', `${at}/overview`],
      ['notices', '/api/notices'],
      ['member', `${at}/members/${other.memberId}`],
    ];
    for (const [kind, path] of paths) reads.push({ kind, role: person.role, path, headers: { authorization: `Bearer ${person.bearer}`, 'accept-encoding': ACCEPT } });
  });
  return reads;
}

/** A fixed shuffle (the same mix in every run and on both engines). */
function shuffle<T>(items: T[]): T[] {
  let seed = 29;
  const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

export interface ReadMix {
  reads: PlannedRequest[];
  organizations: number;
  people: number;
  /** kind/role pairs the portal refused in the probe, left out of the mix. */
  refused: string[];
}

/**
 * The mix: every organization's people reading it, plus the staff's pending approvals (one per
 * organization in the mix). One request of each kind/role pair is probed first.
 */
export async function readMix(url: string, organizations: Organization[], staffBearers: string[]): Promise<ReadMix> {
  const all: Read[] = organizations.flatMap(readsOf);
  organizations.forEach((_, i) => {
    all.push({ kind: 'pending', role: 'staff', path: '/api/approve', headers: { authorization: `Bearer ${staffBearers[i % staffBearers.length]}`, 'accept-encoding': ACCEPT } });
  });
  const refused = new Set<string>();
  const probed = new Set<string>();
  for (const read of all) {
    const pair = `${read.kind}/${read.role}`;
    if (probed.has(pair)) continue;
    probed.add(pair);
    const response = await fetch(`${url}${read.path}`, { headers: read.headers, signal: AbortSignal.timeout(120_000) });
    await response.arrayBuffer();
    if (!response.ok) refused.add(`${pair} (${response.status})`);
  }
  const refusedPairs = new Set([...refused].map((r) => r.split(' ')[0]));
  const reads = shuffle(all.filter((r) => !refusedPairs.has(`${r.kind}/${r.role}`))).map(({ path, headers }) => ({ path, headers }));
  return { reads, organizations: organizations.length, people: organizations.reduce((n, o) => n + o.people.length, 0), refused: [...refused] };
}

export interface SpreadRun {
  name: string;
  writesPerSecond: number;
  run: LoadedRun<WriterReport | undefined>;
}

/** The read mix at the bench's connections, with a writer at `writesPerSecond` beside it (0: none). */
export async function runSpread(
  stage: Stage, mix: ReadMix, writesPerSecond: number, writes: Writes, organizations: Organization[],
): Promise<SpreadRun> {
  let n = 0;
  const source = () => ({ next: () => mix.reads[n++ % mix.reads.length] });
  const writer = writesPerSecond > 0 ? openLoopWriter(writes, organizations, writesPerSecond) : undefined;
  const run = await loadedRun<WriterReport | undefined>(stage, { source, connections: stage.config.connections, expect: [200, 304] }, writer);
  const name = writesPerSecond ? `reads under ${writesPerSecond} writes/s` : 'spread readers';
  stage.log(describeRun(name, run));
  if (run.beside) stage.log(describeWriter(run.beside));
  return { name, writesPerSecond, run };
}
