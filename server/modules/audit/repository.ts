/** Journal queries: one organization's records, newest first, a page at a time. */
import type { Queryable } from '../../db/database';
import type { JournalQuery } from '../../../common/schemas/audit';
import { containsIgnoringCase } from '../../db/text-filter';

/**
 * Without a filter, a page is found by key (docs/decisions.md "Journal pages by key"): records are
 * numbered 1…n per organization as they are written, so offset k starts at number n − k, one index
 * seek at any depth, and n is the total without counting.
 */
async function pageByKey(db: Queryable, organizationId: string, query: JournalQuery) {
  const counter = await db.selectFrom('journal_counters').select('total').where('organization_id', '=', organizationId).executeTakeFirst();
  const total = Number(counter?.total ?? 0);
  const rows = await db
    .selectFrom('audit_records')
    .select(['record_id', 'reason', 'date_created', 'member_email', 'message'])
    .where('organization_id', '=', organizationId)
    .where('sequence', '<=', total - query.offset)
    .orderBy('sequence', 'desc')
    .limit(query.limit)
    .execute();
  return { rows: rows.map((r) => ({ ...r, record_id: Number(r.record_id) })), total };
}

/**
 * With a filter, the page walks the index (organization_id, record_id) backwards and stops after `limit`
 * matches, so it stays fast however many records an organization has. The filter is a
 * "contains" on reason or message, which no b-tree index can serve, so counting the matches
 * reads the organization's records once; a page shorter than the limit already tells the total
 * and spares that second read (docs/decisions.md "Organizations and members").
 */
export async function listAuditRecords(db: Queryable, organizationId: string, query: JournalQuery) {
  const filter = query.filter?.trim();
  if (!filter) return pageByKey(db, organizationId, query);
  let q = db.selectFrom('audit_records').where('organization_id', '=', organizationId);
  q = q.where((eb) => eb.or([containsIgnoringCase(db, 'reason', filter), containsIgnoringCase(db, 'message', filter)]));
  const rows = await q
    .select(['record_id', 'reason', 'date_created', 'member_email', 'message'])
    .orderBy('record_id', 'desc')
    .offset(query.offset)
    .limit(query.limit)
    .execute();
  const complete = rows.length < query.limit && (rows.length > 0 || query.offset === 0);
  const total = complete
    ? query.offset + rows.length
    : Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { rows: rows.map((r) => ({ ...r, record_id: Number(r.record_id) })), total };
}
