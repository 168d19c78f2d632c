/** The journal of one organization (SPEC.md §2 "/auditrecords"): readable by any applying role. */
import { z } from 'zod';
import type { Db } from '../../db/database';
import { auditRecordSchema, type JournalQuery } from '../../../common/schemas/audit';
import type { RequestActor } from '../../auth/actor';
import { authorize } from '../../access/authorize';
import { cachedPage, encodeJson, queryKey, type JsonPage } from '../../db/page-cache';
import { journalSize, listAuditRecords } from './repository';

const records = z.array(auditRecordSchema);

/**
 * One page of the journal as JSON. Records are only ever appended, numbered 1…n per organization
 * in the transaction that writes them, so every page (filtered or not) is fixed by n: it is kept
 * for n, and the next record written makes it anew (db/page-cache.ts, with n for the epoch).
 */
export async function listJournal(db: Db, actor: RequestActor, organizationId: string, query: JournalQuery): Promise<JsonPage> {
  await authorize(db, actor, 'read', organizationId);
  const size = await journalSize(db, organizationId);
  return cachedPage(db, size, `journal ${organizationId} ${queryKey(query)}`, null, async () => {
    const { rows, total } = await listAuditRecords(db, organizationId, query, undefined, size);
    return { json: encodeJson(records, rows), total };
  });
}
