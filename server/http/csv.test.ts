/** The CSV writer, read back with a real CSV parser (csv-parse): RFC 4180, BOM, formulas neutralized, streamed. */
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { csvCell, csvDisposition, csvStream, keyedBatches, offsetBatches, type CsvColumn } from './csv';

type Row = { id: number; text: string | null; at: Date | null };
const COLUMNS: CsvColumn<Row>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'text', value: (r) => r.text },
  { header: 'at', value: (r) => r.at },
];

async function text(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as string | Buffer));
  return Buffer.concat(chunks);
}

async function* batchesOf<T>(rows: T[], size: number) {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

const TEXTS = [
  'plain', 'with "quotes"', 'a,b,c', 'line\nbreak', 'carriage\rreturn', 'crlf\r\nend', '"', '""', ',',
  '=SUM(A1:A2)', '+1', '-1', '@cmd', '\tTabbed', '\rCR first', '=HYPERLINK("http://x","y")',
  'Straße, Ärger, naïve café', '東京 😀 emoji 👩‍👩‍👧', '', ' leading and trailing ', "it's", 'a=b', 'x-1',
];

describe('CSV writer', () => {
  it('writes RFC 4180 with a BOM once, CRLF line ends and neutralized formulas, read back by a CSV parser', async () => {
    const rows: Row[] = TEXTS.map((t, i) => ({ id: i, text: t, at: new Date(Date.UTC(2026, 0, 1, 12, 0, i)) }));
    rows.push({ id: 99, text: null, at: null });
    const bytes = await text(csvStream(COLUMNS, batchesOf(rows, 4)));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const body = bytes.toString('utf8');
    expect(body.indexOf('\uFEFF', 1)).toBe(-1);
    expect(body.startsWith('\uFEFFid,text,at\r\n')).toBe(true);
    expect(body.endsWith('\r\n')).toBe(true);
    // Every line end outside quotes is CRLF: strict parsing with the record delimiter CRLF only.
    const parsed: string[][] = parse(body, { bom: true, record_delimiter: '\r\n', relax_quotes: false });
    expect(parsed[0]).toEqual(['id', 'text', 'at']);
    const neutral = (t: string) => (/^[=+\-@\t\r]/.test(t) ? `'${t}` : t);
    expect(parsed.slice(1)).toEqual([
      ...TEXTS.map((t, i) => [String(i), neutral(t), `2026-01-01T12:00:${String(i).padStart(2, '0')}.000Z`]),
      ['99', '', ''],
    ]);
  });

  it('quotes only what needs quotes and neutralizes only the first character', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a "b"')).toBe('"a ""b"""');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('-')).toBe("'-");
    expect(csvCell('1-2')).toBe('1-2');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(new Date('2026-11-26T11:00:00Z'))).toBe('2026-11-26T11:00:00.000Z');
  });

  it('writes the header of an empty list and tells its end', async () => {
    const ends: Array<[number, boolean]> = [];
    const body = (await text(csvStream(COLUMNS, batchesOf<Row>([], 10), async (n, complete) => void ends.push([n, complete])))).toString();
    expect(body).toBe('\uFEFFid,text,at\r\n');
    expect(ends).toEqual([[0, true]]);
  });

  it('reads the next batch only when the reader has taken the last (backpressure), and tells an early end', async () => {
    let pulled = 0;
    const ends: Array<[number, boolean]> = [];
    async function* endless() {
      for (;;) {
        pulled++;
        yield Array.from({ length: 1000 }, (_, i) => ({ id: i, text: 'x'.repeat(100), at: null }));
      }
    }
    const stream = csvStream(COLUMNS, endless(), async (n, complete) => void ends.push([n, complete]));
    // Nobody reads: only what fills the stream's buffer is pulled.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pulled).toBeLessThanOrEqual(2);
    let read = 0;
    for await (const chunk of stream) {
      read += (chunk as Buffer).length;
      if (read > 1_000_000) break;
    }
    expect(pulled).toBeLessThan(15);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ends).toHaveLength(1);
    expect(ends[0][1]).toBe(false);
  });

  it('lets other work run between batches, however fast the reader takes them', async () => {
    // SQLite answers a batch without waiting for I/O: other requests run only if the stream gives way.
    let turns = 0;
    let running = true;
    const tick = () => { turns += 1; if (running) setImmediate(tick); };
    setImmediate(tick);
    const seen: number[] = [];
    async function* batches() {
      for (let i = 0; i < 5; i++) {
        seen.push(turns);
        yield [{ id: i, text: 'x', at: null }];
      }
    }
    await text(csvStream(COLUMNS, batches()));
    running = false;
    for (let i = 1; i < seen.length; i++) expect(seen[i], `turns before batch ${i}`).toBeGreaterThan(seen[i - 1]);
  });

  it('reads by offset until a short batch', async () => {
    const all = Array.from({ length: 25 }, (_, i) => i);
    const calls: number[] = [];
    const got: number[] = [];
    for await (const batch of offsetBatches(async (offset, limit) => (calls.push(offset), all.slice(offset, offset + limit)), 10)) got.push(...batch);
    expect(got).toEqual(all);
    expect(calls).toEqual([0, 10, 20]);
  });

  it('reads by key: the keys once, then each row once, in the keys\' order, leaving out rows gone meanwhile', async () => {
    const keys = Array.from({ length: 2_500 }, (_, i) => `k${String(2_500 - i).padStart(4, '0')}`);
    const asked: string[][] = [];
    let keyReads = 0;
    const batches = keyedBatches(
      async () => (keyReads++, keys),
      // The database answers in its own order, and k1000 was deleted after the keys were read.
      async (slice) => (asked.push([...slice]), slice.filter((k) => k !== 'k1000').map((k) => ({ key: k })).reverse()),
      (row) => row.key,
    );
    const out: string[] = [];
    for await (const batch of batches) out.push(...batch.map((r) => r.key));
    expect(keyReads).toBe(1);
    expect(asked.map((a) => a.length)).toEqual([1_000, 1_000, 500]);
    expect(asked.flat()).toEqual(keys);
    expect(out).toEqual(keys.filter((k) => k !== 'k1000'));
  });

  it('names the file safely', () => {
    expect(csvDisposition('journal', 'Contoso "Ltd"/\\ Ünïcode', new Date('2026-11-26T11:00:00Z')))
      .toBe('attachment; filename="journal-Contoso-Ltd-Unicode-2026-11-26.csv"');
  });
});
