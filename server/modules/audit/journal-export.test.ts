/**
 * The journal's CSV export (docs/decisions.md "CSV export"): every record the JSON pages give under
 * the same filter and order, read back with a CSV parser; authorized as the list is; journaled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';
import { journalBatches, journalSize } from './repository';

const dialects = await testDialects();
type Record = { record_id: number; reason: string; message: string; member_email: string | null; date_created: string };

const MESSAGES = [
  (i: number) => `Uploaded certificate CN=gw${i}.contoso.example,O=Contoso "Ltd" (100%_sure).`,
  (i: number) => `=HYPERLINK("http://evil.example/${i}","click")`,
  (i: number) => `-${i}+1 and @SUM(A1)`,
  (i: number) => `Line one ${i}\r\nline two, Straße 😀`,
  (i: number) => `Banned member m${i}@contoso.example.`,
];
const neutral = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe.each(dialects)('journal CSV export on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  const path = (org = w.customer.id) => `/api/organizations/${org}/auditrecords`;

  // 3,000 records of the customer (more than one batch of the export), written straight into the
  // table as an import would, and one of the partner that must never show.
  beforeAll(async () => {
    w = await make.cooperation();
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      organization_id: w.customer.id,
      reason: i % 5 === 4 ? 'MEMBER_BANNED' : 'CERTIFICATE_UPLOADED',
      message: MESSAGES[i % 5](i),
      member_email: i % 7 === 0 ? null : w.issuer.email,
      date_created: new Date(t.clock.now().getTime() + i * 1000).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 250) await t.db.insertInto('audit_records').values(rows.slice(i, i + 250)).execute();
    await make.journal(w.partner, { reason: 'MEMBER_BANNED', message: 'Banned member x@northwind.example.' });
  });

  /** Every record the JSON list gives for the query, page by page. */
  const pages = async (query: string) => {
    const all: Record[] = [];
    for (let offset = 0; ; offset += 1000) {
      const res = await t.call(w.member.email, { method: 'GET', url: `${path()}?limit=1000&offset=${offset}${query ? `&${query}` : ''}` });
      expect(res.statusCode).toBe(200);
      const page = res.json() as Record[];
      all.push(...page);
      if (page.length < 1000) return all;
    }
  };
  const exported = async (query: string, as = w.member.email) => {
    const res = await t.call(as, { method: 'GET', url: `${path()}.csv${query ? `?${query}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="journal-Customer-[A-Za-z0-9-]+-2026-03-15\.csv"$/);
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(rows[0]).toEqual(['record_id', 'date_created', 'reason', 'member_email', 'message']);
    return rows.slice(1);
  };
  const asCsv = (records: Record[]) => records.map((r) => [String(r.record_id), r.date_created, r.reason, r.member_email ?? '', neutral(r.message)]);

  it('exports every record of the list, as the JSON pages give them, under each filter and order', async () => {
    for (const query of ['', 'sort=date_created', 'sort=-date_created', 'filter=member_banned', 'filter=GW17&sort=date_created',
      `filter=${encodeURIComponent('100%_sure')}`, `filter=${encodeURIComponent('straße 😀')}`, 'filter=no-such-text']) {
      // The JSON first: the export journals itself after its last row, as the newest record.
      const expected = asCsv(await pages(query));
      const rows = await exported(query);
      expect(rows.length, query).toBe(expected.length);
      expect(rows, query).toEqual(expected);
    }
    const all = await exported('sort=date_created');
    expect(all.length).toBeGreaterThanOrEqual(3000);
    expect(all.some((r) => r[4].includes('northwind'))).toBe(false);
    expect(all.filter((r) => r[4].startsWith("'=HYPERLINK"))).toHaveLength(600);
  });

  it('finds each batch by one upper bound on the number: SQLite walks the index from one of two', async () => {
    // Given `<= n` beside the cursor's `< k`, SQLite started at n and filtered down to k: newest first, every batch
    // read every record before it (the large organization's 500,000 records took 16 s instead of 1).
    const texts: string[] = [];
    const db = t.db.withPlugin({
      transformQuery: (args) => ((texts.push(t.db.getExecutor().compileQuery(args.node, args.queryId).sql)), args.node),
      transformResult: async (args) => args.result,
    });
    const size = await journalSize(t.db, w.customer.id);
    for (const sort of ['-date_created', 'date_created'] as const) {
      texts.length = 0;
      const numbers: number[] = [];
      for await (const rows of journalBatches(db, w.customer.id, { sort }, size, 1000)) numbers.push(...rows.map((r) => Number(r.record_id)));
      expect(numbers).toHaveLength(size);
      expect(new Set(numbers).size).toBe(size);
      expect(texts.length, sort).toBeGreaterThan(3);
      for (const text of texts) expect(text.match(/"sequence" <=? /g), `${sort}: ${text}`).toHaveLength(1);
    }
  });

  it('journals the export: the list, the filter and order, how many rows', async () => {
    // 600 bans, and the records of earlier exports under this filter, which name it.
    const listed = (await pages('filter=member_banned&sort=date_created')).length;
    const rows = await exported('filter=member_banned&sort=date_created', w.partnerAdmin.email);
    const [top] = (await t.call(w.member.email, { method: 'GET', url: `${path()}?limit=1` })).json() as Record[];
    expect(top.reason).toBe('LIST_EXPORTED');
    expect(top.member_email).toBe(w.partnerAdmin.email);
    expect(top.message).toBe(`Exported the journal as CSV (filter="member_banned", sort="date_created"): ${rows.length.toLocaleString('en-US')} rows.`);
    expect(rows.length).toBe(listed);
    expect(listed).toBeGreaterThanOrEqual(600);
  });

  it('gzips the export for a client that accepts it: the same rows, a fraction of the bytes', async () => {
    const plain = await t.call(w.member.email, { method: 'GET', url: `${path()}.csv?sort=date_created` });
    const zipped = await t.call(w.member.email, { method: 'GET', url: `${path()}.csv?sort=date_created`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const unzipped = gunzipSync(zipped.rawPayload).toString('utf8');
    // The export journals itself after its rows, so the second one lists the first's record too.
    const rows = (body: string) => (parse(body, { bom: true, record_delimiter: '\r\n' }) as string[][]).filter((r) => r[2] !== 'LIST_EXPORTED');
    expect(rows(unzipped)).toEqual(rows(plain.rawPayload.toString('utf8')));
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('answers HEAD with the headers only: no row read, nothing journaled', async () => {
    const before = (await t.call(w.member.email, { method: 'GET', url: `${path()}?limit=1` })).json();
    const res = await t.call(w.member.email, { method: 'HEAD', url: `${path()}.csv?filter=gw17` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="journal-/);
    expect(res.body).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await t.call(w.member.email, { method: 'GET', url: `${path()}?limit=1` })).json()).toEqual(before);
    expect((await t.call(null, { method: 'HEAD', url: `${path()}.csv` })).statusCode).toBe(401);
  });

  it('is authorized as the list is: 401 without a token, 403 for a banned member, 404 across tenants and for an unknown organization', async () => {
    const cases: Array<[string | null, string]> = [
      [null, w.customer.id], [w.partnerIssuer.email, w.customer.id], [w.issuer.email, w.partner.id], [w.issuer.email, 'no-such-id'],
      [w.bannedMember.email, w.banned.id], [w.bannedMember.email, w.customer.id], [w.devops.email, w.customer.id],
      [w.member.email, w.customer.id], [w.partnerAdmin.email, w.customer.id], [w.approver.email, w.customer.id],
    ];
    const statuses = new Set<number>();
    for (const [as, org] of cases) {
      const list = await t.call(as, { method: 'GET', url: `${path(org)}?limit=1` });
      const csv = await t.call(as, { method: 'GET', url: `${path(org)}.csv` });
      expect(csv.statusCode, `${as} ${org}`).toBe(list.statusCode);
      if (list.statusCode !== 200) expect(csv.json(), `${as} ${org}`).toEqual(list.json());
      statuses.add(list.statusCode);
    }
    expect([...statuses].sort()).toEqual([200, 401, 403, 404]);
    const bad = await t.call(w.member.email, { method: 'GET', url: `${path()}.csv?sort=reason` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('sort');
  });
});
