/** Journal queries: one organization's records, newest first (or oldest first), a page at a time. */
import { sql, type ExpressionBuilder } from 'kysely';
import { isPostgres, type Queryable } from '../../db/database';
import type { Database } from '../../db/schema';
import type { JournalQuery } from '../../../common/schemas/audit';
import { containsIgnoringCase } from '../../db/text-filter';
import { candidates, type TextIndex } from '../../db/text-index';
import { rareTrigramCandidates } from './trigram-statistics';

const COLUMNS = ['record_id', 'reason', 'date_created', 'member_email', 'message'] as const;

/** How a filtered page chooses its way (docs/decisions.md "Journal pages by key"); tests make them small. */
export interface FilterTuning {
  /** The newest records read first: they hold a common filter's first page. */
  head: number;
  /** Matches among them from which a filter counts as common: then the index would read too much. */
  common: number;
  /** SQLite: records a trigram may be in and still be looked up by, counted in the index (`db/text-index.ts`). */
  rareTrigram: number;
  /**
   * PostgreSQL: the same, as the statistics estimate it (`trigram-statistics.ts`). Higher: an
   * estimate is no count, and reading a list of 50,000 entries costs pg_trgm a few pages.
   */
  estimatedTrigram: number;
}
export const FILTER_TUNING: FilterTuning = { head: 1000, common: 50, rareTrigram: 5000, estimatedTrigram: 50_000 };

/** The journal's trigram index (migration 0011) on the reason and the message. */
const JOURNAL_TEXT: TextIndex = {
  table: 'audit_records_text',
  key: 'record_id',
  like: (pattern) => sql<boolean>`(lower(reason) || ' ' || lower(message)) like ${pattern} escape '\\'`,
};
/** PostgreSQL: the statistics object on pg_trgm's trigrams of the indexed text (migration 0014). */
const JOURNAL_TRIGRAMS = 'audit_records_trigrams';

type Row = { record_id: number | string; reason: string; date_created: string; member_email: string | null; message: string };
const page = (rows: Row[], total: number) => ({ rows: rows.map((r) => ({ ...r, record_id: Number(r.record_id) })), total });

/** The number of records in an organization's journal, kept in step with it (migration 0005). */
function journalSizeQuery(db: Queryable, organizationId: string) {
  return db.selectFrom('organization_counters').select('journal_records').where('organization_id', '=', organizationId);
}

export async function journalSize(db: Queryable, organizationId: string): Promise<number> {
  return Number((await journalSizeQuery(db, organizationId).executeTakeFirst())?.journal_records ?? 0);
}

/**
 * Without a filter, a page is found by key (docs/decisions.md "Journal pages by key"): records are
 * numbered 1…n per organization as they are written, so offset k starts at number n − k, one index
 * seek at any depth, and n is the total without counting. n is read in the page's own statement (a scalar
 * subquery, evaluated once): one snapshot and one round trip, where reading it first took two.
 */
async function pageByKey(db: Queryable, organizationId: string, query: JournalQuery) {
  const size = journalSizeQuery(db, organizationId);
  let q = db.selectFrom('audit_records').select(COLUMNS).select(size.as('total')).where('organization_id', '=', organizationId);
  // Oldest first (sort=date_created): offset k starts after number k, bounded by n like the newest first.
  q = oldestFirst(query)
    ? q.where('sequence', '>', query.offset).where('sequence', '<=', size).orderBy('sequence', 'asc')
    : q.where('sequence', '<=', sql<number>`(${size}) - ${query.offset}`).orderBy('sequence', 'desc');
  const rows = await q.limit(query.limit).execute();
  // A page past the end has no row to carry n.
  const total = rows.length ? Number(rows[0].total) : await journalSize(db, organizationId);
  return page(rows.map(({ total: _, ...row }) => row), total);
}

/**
 * The journal's one order is its time (`sort=date_created`, `-date_created`, newest first without
 * it): the order the records were written in, which is their number and their id (the trigger of
 * migration 0005 draws both in step). Their times follow it unless the server's clock was set back.
 */
const oldestFirst = (query: Pick<JournalQuery, 'sort'>) => query.sort === 'date_created';

/**
 * With a filter, "contains" on the reason or the message, ignoring case (`containsIgnoringCase`):
 * 1. The newest `head` records (oldest, for oldest first), one index range: an organization with no more records, or a filter
 *    common enough to fill the page among them, has its page here.
 * 2. A rarer filter of three characters or more: the trigram index names the candidates (migration
 *    0011) by the filter's rare trigrams, the same LIKE keeps the matches, and the page and the total
 *    come from them at once.
 * 3. Otherwise (a common filter past the head's page, one or two characters, a filter the index does
 *    not narrow): the organization's records newest first until the page is full.
 * The total of 1 and 3 is counted over the organization's records, when the page does not tell it.
 */
export async function listAuditRecords(db: Queryable, organizationId: string, query: JournalQuery, tuning = FILTER_TUNING) {
  const filter = query.filter?.trim();
  if (!filter) return pageByKey(db, organizationId, query);
  const size = await journalSize(db, organizationId);

  const matches = (eb: ExpressionBuilder<Database, 'audit_records'>) =>
    eb.or([containsIgnoringCase(db, 'reason', filter), containsIgnoringCase(db, 'message', filter)]);
  const filtered = db.selectFrom('audit_records').where('organization_id', '=', organizationId).where(matches);
  const countAll = async () => Number((await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const end = query.offset + query.limit;

  // The head: the newest `head` records, or the oldest when the list starts with them.
  const ascending = oldestFirst(query);
  const direction = ascending ? 'asc' : 'desc';
  const head = await (ascending
    ? filtered.select(COLUMNS).where('sequence', '<=', Math.min(size, tuning.head)).orderBy('sequence', 'asc')
    : filtered.select(COLUMNS).where('sequence', '>', size - tuning.head).orderBy('sequence', 'desc')
  ).execute();
  if (size <= tuning.head) return page(head.slice(query.offset, end), head.length);
  if (head.length >= end) return page(head.slice(query.offset, end), await countAll());

  if (head.length < tuning.common) {
    const narrow = isPostgres(db)
      ? await rareTrigramCandidates(db, JOURNAL_TRIGRAMS, JOURNAL_TEXT.like, filter, tuning.estimatedTrigram)
      : await candidates(db, JOURNAL_TEXT, filter, tuning.rareTrigram);
    if (narrow === 'none') return page([], 0);
    if (narrow) {
      // SQLite, without statistics, walked the organization's records in their index and tested each against the
      // candidates (the large organization's 500,000: 130 ms). When the organization has more records than the
      // candidates can be (at most `rareTrigram`), the candidates lead, each read by its key (1 ms).
      const candidatesFirst = !isPostgres(db) && size > tuning.rareTrigram;
      const found = candidatesFirst ? db.selectFrom('audit_records').where(sql<boolean>`+organization_id = ${organizationId}`).where(matches) : filtered;
      const rows = await found
        .where(narrow)
        .select([...COLUMNS, sql<number>`count(*) over ()`.as('total')])
        .orderBy('sequence', direction)
        .offset(query.offset)
        .limit(query.limit)
        .execute();
      const total = rows.length ? Number(rows[0].total) : Number((await found.where(narrow).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      return page(rows.map(({ total: _, ...row }) => row), total);
    }
  }

  const rows = await filtered.select(COLUMNS).orderBy('sequence', direction).offset(query.offset).limit(query.limit).execute();
  const complete = rows.length < query.limit && (rows.length > 0 || query.offset === 0);
  return page(rows, complete ? query.offset + rows.length : await countAll());
}

/**
 * The whole journal as the list shows it (filter and order), for the CSV export: `batch` records at
 * a time, each batch found by key after the last (by number, the JSON pages'
 * order), so a million records take a million / `batch` index seeks and constant
 * memory. Bounded by the size `n` read when the export began: records written meanwhile (the
 * export's own record among them) are not in it, as no page of size n holds them.
 * 250 a batch: a batch's rows and CSV text are what other requests wait for. With 1,000 their p99 beside a
 * 500,000-record export was 37–60 ms, with 250 22–35 ms; the export as fast on SQLite, a fifth slower on PostgreSQL.
 */
export async function* journalBatches(db: Queryable, organizationId: string, query: Pick<JournalQuery, 'filter' | 'sort'>, size: number, batch = 250) {
  const filter = query.filter?.trim();
  const ascending = oldestFirst(query);
  const base = db.selectFrom('audit_records').select([...COLUMNS, 'sequence']).where('organization_id', '=', organizationId);
  let after: number | null = null;
  for (;;) {
    let q = filter
      ? base.where((eb) => eb.or([containsIgnoringCase(db, 'reason', filter), containsIgnoringCase(db, 'message', filter)]))
      : base;
    if (after !== null) q = q.where('sequence', ascending ? '>' : '<', after);
    // Newest first, the cursor alone once there is one: given `<= size` beside `< after`, SQLite walked the index
    // down from `size` and filtered by `after`, so every batch read all the records before it (500,000: 16 s).
    if (ascending || after === null) q = q.where('sequence', '<=', size);
    const rows = await q.orderBy('sequence', ascending ? 'asc' : 'desc').limit(batch).execute();
    if (rows.length) after = Number(rows[rows.length - 1].sequence);
    yield page(rows.map(({ sequence: _, ...row }) => row), 0).rows;
    if (rows.length < batch) return;
  }
}
