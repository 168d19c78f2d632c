/** The journal of one organization (SPEC.md §2 "/auditrecords"): readable by any applying role. */
import { z } from 'zod';
import type { Db } from '../../db/database';
import { auditRecordSchema, type AuditRecord, type JournalExportQuery, type JournalQuery } from '../../../common/schemas/audit';
import type { RequestActor } from '../../auth/actor';
import { authorize } from '../../access/authorize';
import { encodeJson, type JsonPage } from '../../http/kept-answers';
import { journalBatches, journalSize, listAuditRecords } from './repository';
import { csvDisposition, csvStream, journalExport, type CsvColumn, exportedOrganizationName } from '../../http/csv';

const records = z.array(auditRecordSchema);

/** One page of the journal as JSON: by key from the journal's size, or through its text filter (repository.ts). */
export async function listJournal(db: Db, actor: RequestActor, organizationId: string, query: JournalQuery): Promise<JsonPage> {
  await authorize(db, actor, 'read', organizationId);
  const { rows, total } = await listAuditRecords(db, organizationId, query);
  return { json: encodeJson(records, rows), total };
}

/**
 * The journal as CSV (docs/decisions.md "CSV export"): the records the list shows under the same
 * filter and order, all of them, streamed by key a thousand at a time. Authorized as the list is;
 * the export itself is journaled when the stream ends (how many rows, the filter, the order), in a
 * transaction of its own through the one audit path.
 */
export async function exportJournal(db: Db, actor: RequestActor, organizationId: string, query: JournalExportQuery, now: () => Date) {
  await authorize(db, actor, 'read', organizationId);
  const size = await journalSize(db, organizationId);
  const name = await exportedOrganizationName(db, organizationId);
  const body = csvStream(JOURNAL_COLUMNS, journalBatches(db, organizationId, query, size), journalExport(db, actor, organizationId, 'the journal', query, now));
  return { body, disposition: csvDisposition('journal', name, now()) };
}

const JOURNAL_COLUMNS: CsvColumn<AuditRecord>[] = [
  { header: 'record_id', value: (r) => r.record_id },
  { header: 'date_created', value: (r) => r.date_created },
  { header: 'reason', value: (r) => r.reason },
  { header: 'member_email', value: (r) => r.member_email },
  { header: 'message', value: (r) => r.message },
];
