/**
 * CSV exports of the lists (docs/decisions.md "CSV export"): RFC 4180 (CRLF line ends, a cell with
 * a quote, comma, CR or LF quoted, quotes inside doubled), UTF-8 with a byte order mark once at the
 * start for spreadsheet programs, dates in ISO 8601, and cells that a spreadsheet would take for a
 * formula (starting with =, +, -, @, tab or CR, as OWASP advises) neutralized by a leading `'`.
 * Streamed: rows are pulled from the database a batch at a time, and the next batch is read only
 * when the response has taken the last one (Readable.from waits for the reader), so memory stays
 * flat whatever the list's length. Between batches the stream lets the event loop answer others:
 * a reader on a fast link takes every batch at once, and SQLite's reads do not wait for I/O, so
 * without it a long export held every other request until its end. Gzipped when the client accepts it.
 */
import { pipeline, Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/database';
import { audit } from '../db/audit';
import { fileResponse } from './openapi';

export type CsvValue = string | number | boolean | Date | null | undefined;

/** One column: its header and its cell of a row. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

const BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** The text of one cell, quoted and neutralized as needed. Numbers and booleans are written as they are. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = value instanceof Date ? value.toISOString() : value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (cells: CsvValue[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * The CSV text of a list, a chunk per batch: the BOM and the header row first, then each batch's
 * rows. `onEnd` learns how many rows were written and whether the list was written to its end
 * (false when the reader went away or a batch failed); it runs once, before the stream ends.
 */
async function* csvChunks<T>(
  columns: ReadonlyArray<CsvColumn<T>>,
  batches: AsyncIterable<readonly T[]>,
  onEnd?: (rows: number, complete: boolean) => Promise<void>,
): AsyncGenerator<string> {
  let rows = 0;
  let complete = false;
  try {
    yield BOM + line(columns.map((c) => c.header));
    for await (const batch of batches) {
      if (!batch.length) continue;
      let chunk = '';
      for (const row of batch) chunk += line(columns.map((c) => c.value(row)));
      rows += batch.length;
      yield chunk;
      await nextTurn();
    }
    complete = true;
  } finally {
    await onEnd?.(rows, complete);
  }
}

/** The CSV of a list as a stream a Fastify reply sends (see `csvChunks`). */
export function csvStream<T>(
  columns: ReadonlyArray<CsvColumn<T>>,
  batches: AsyncIterable<readonly T[]>,
  onEnd?: (rows: number, complete: boolean) => Promise<void>,
): Readable {
  return Readable.from(csvChunks(columns, batches, onEnd), { objectMode: false });
}

/** Batches of a list read by offset, `size` rows at a time, until a batch comes back short. */
export async function* offsetBatches<T>(read: (offset: number, limit: number) => Promise<readonly T[]>, size = 1000): AsyncGenerator<readonly T[]> {
  for (let offset = 0; ; offset += size) {
    const batch = await read(offset, size);
    yield batch;
    if (batch.length < size) return;
  }
}

/**
 * Batches of a list read by key: the keys of every row in the list's order first (one statement), then the rows
 * `size` keys at a time, put in that order. Linear in the rows whatever the sort, where reading by offset
 * reads (and sorts) the list up to each batch again. A row deleted meanwhile is left out; one changed meanwhile
 * is written as it is now, in the place it had when the export began.
 */
export async function* keyedBatches<K, T>(
  readKeys: () => Promise<readonly K[]>, readRows: (keys: readonly K[]) => Promise<readonly T[]>, keyOf: (row: T) => K, size = 1000,
): AsyncGenerator<readonly T[]> {
  const keys = await readKeys();
  for (let start = 0; start < keys.length; start += size) {
    const slice = keys.slice(start, start + size);
    const byKey = new Map((await readRows(slice)).map((row) => [keyOf(row), row]));
    yield slice.flatMap((key) => byKey.get(key) ?? []);
  }
}

/** `attachment; filename="<list>-<name>-<date>.csv"`, the name reduced to safe characters. */
export function csvDisposition(list: string, name: string, now: Date): string {
  const safe = name.normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'export';
  return `attachment; filename="${list}-${safe}-${now.toISOString().slice(0, 10)}.csv"`;
}

/** The name an export of one organization's list is journaled and saved under (read after `authorize`). */
export async function exportedOrganizationName(db: Db, organizationId: string): Promise<string> {
  const row = await db.selectFrom('organizations').select('organization_name').where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return row.organization_name;
}

/**
 * Journals an export when its stream ends, in a transaction of its own through the one audit path:
 * what list, under which query (filters and order), how many rows, and whether the download ended
 * early. `onEnd` of `csvStream`.
 */
export function journalExport(db: Db, by: { email: string }, organizationId: string | null, list: string, query: object, now: () => Date) {
  const terms = Object.entries(query).filter(([, v]) => v !== undefined && v !== '' && v !== false).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return async (rows: number, complete: boolean) => {
    const count = `${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}`;
    const message = `Exported ${list} as CSV (${terms.length ? terms.join(', ') : 'no filters'}): ${complete ? count : `stopped after ${count}, the download ended early`}.`;
    await db.transaction().execute((tx) => audit(tx, { reason: 'LIST_EXPORTED', message, organization_id: organizationId, member_email: by.email, now: now() }));
  };
}

/** Sends an export: text/csv, a download under its file name, never cached. */
export function sendCsv(reply: FastifyReply, csv: { body: Readable; disposition: string }) {
  reply.type('text/csv; charset=utf-8').header('content-disposition', csv.disposition).header('cache-control', 'no-store');
  // HEAD (Fastify answers it with the GET handler) would read the whole list to throw it away, and
  // journal an export nobody received: the stream is dropped unread, so no row is read and nothing journaled.
  if (reply.request.method === 'HEAD') {
    csv.body.destroy();
    return reply.send();
  }
  // A stream is piped as it is, past a response schema's serializer; the route's schema documents the text.
  const accepted = reply.request.headers['accept-encoding'];
  if (!accepted || negotiate(accepted, ['gzip']) !== 'gzip') return reply.send(csv.body);
  // CSV shrinks to a fifth or less. A client that goes away ends both streams (the export is journaled as stopped).
  reply.header('content-encoding', 'gzip').header('vary', 'Accept-Encoding');
  return reply.send(pipeline(csv.body, createGzip(), () => {}));
}

/** The OpenAPI response of an export route. */
export const csvResponse = { 200: fileResponse('Every row the list shows under its filters and order, as CSV (RFC 4180, UTF-8 with BOM; Content-Disposition: attachment).', 'text/csv') };
