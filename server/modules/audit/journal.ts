/** The journal of one organization (SPEC.md §2 "/auditrecords"): readable by any applying role. */
import type { Db } from '../../db/database';
import type { JournalQuery } from '../../../common/schemas/audit';
import type { RequestActor } from '../../auth/actor';
import { authorize } from '../../access/authorize';
import { listAuditRecords } from './repository';

export async function listJournal(db: Db, actor: RequestActor, organizationId: string, query: JournalQuery) {
  await authorize(db, actor, 'read', organizationId);
  const { rows, total } = await listAuditRecords(db, organizationId, query);
  return { items: rows, total };
}
