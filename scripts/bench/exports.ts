/**
 * Exports: the CSVs people download, one at a time as a browser asks for them (gzip accepted): the large
 * organization's journal (half of all records, newest first, the default), the admin certificate list (all
 * certificates) and the large organization's certificates. Each export's seconds per 100,000 rows, and whether it
 * came gzipped. While the journal streams, 10 other clients read one organization each in a loop: their p99 is what
 * an export costs everyone else.
 */
import type { DatasetFacts } from './dataset';
import type { Stage } from './loaded';
import { sampleMemory } from './servers';
import { percentile } from './writer';

interface ExportResult {
  label: string;
  rows: number;
  seconds: number;
  gzipped: boolean;
  status: number;
}

export interface ExportsRun {
  exports: ExportResult[];
  /** One-row reads of other clients while the journal streamed, and for 3 s before it (no export). */
  beside: { answers: number; p99Ms: number; failures: number };
  alone: { answers: number; p99Ms: number; failures: number };
  rssMb: number | null;
  rssWithChildrenMb: number | null;
}

const HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

async function download(url: string, bearer: string): Promise<Omit<ExportResult, 'label'>> {
  const started = performance.now();
  const response = await fetch(url, { headers: { ...HEADERS, authorization: `Bearer ${bearer}` }, signal: AbortSignal.timeout(600_000) });
  // fetch gunzips as it reads; the CSV's records end in CRLF (the bench's texts hold no line break of their own).
  let lines = 0;
  const reader = response.body!.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) for (const byte of chunk.value) if (byte === 10) lines++;
  return { rows: Math.max(0, lines - 1), seconds: (performance.now() - started) / 1000, gzipped: response.headers.get('content-encoding') === 'gzip', status: response.status };
}

/** Clients reading an organization in a loop (a pause of 5 ms between reads) until `done`. */
async function readBeside(url: string, bearer: string, done: Promise<unknown>) {
  let running = true;
  void done.finally(() => (running = false));
  const ms: number[] = [];
  let failures = 0;
  const client = async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(url, { headers: { ...HEADERS, authorization: `Bearer ${bearer}` }, signal: AbortSignal.timeout(60_000) });
      await response.arrayBuffer();
      if (response.ok) ms.push(performance.now() - started);
      else failures++;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  await Promise.all(Array.from({ length: 10 }, client));
  return { answers: ms.length, p99Ms: percentile(ms, 99), failures };
}

export async function runExports(stage: Stage, facts: DatasetFacts, supervisor: string): Promise<ExportsRun> {
  const base = stage.portal.current.url;
  const large = `${base}/api/organizations/${facts.largeOrganizationId}`;
  const memory = sampleMemory(stage.portal.current.pid);
  // Read once before: the first read of a person signs them in, which is not the export's doing.
  await (await fetch(large, { headers: { authorization: `Bearer ${supervisor}` } })).arrayBuffer();
  const alone = await readBeside(large, supervisor, new Promise((r) => setTimeout(r, 3_000)));
  const journal = download(`${large}/auditrecords.csv`, supervisor);
  const [journalResult, beside] = await Promise.all([journal, readBeside(large, supervisor, journal)]);
  const exports: ExportResult[] = [{ label: 'journal of the large organization', ...journalResult }];
  for (const [label, path] of [['admin certificate list', `${base}/api/certificates.csv`], ['certificates of the large organization', `${large}/certificates.csv`]]) {
    exports.push({ label, ...(await download(path, supervisor)) });
  }
  const { portalMb, withChildrenMb } = memory.stop();
  const run: ExportsRun = { exports, beside, alone, rssMb: portalMb, rssWithChildrenMb: withChildrenMb };
  for (const e of exports) {
    stage.log(`  ${e.label}: ${e.rows.toLocaleString('en')} rows in ${e.seconds.toFixed(1)} s (${((e.seconds * 100_000) / Math.max(1, e.rows)).toFixed(2)} s per 100,000)${e.gzipped ? ', gzipped' : ''}`);
  }
  stage.log(`  beside the journal's export: ${beside.answers} reads, p99 ${beside.p99Ms.toFixed(0)} ms, ${beside.failures} failed ` +
    `(without an export: ${alone.answers} reads in 3 s, p99 ${alone.p99Ms.toFixed(0)} ms); RSS ${portalMb?.toFixed(0)} / ${withChildrenMb?.toFixed(0)} MB`);
  return run;
}
