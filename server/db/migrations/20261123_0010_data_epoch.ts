/**
 * The data epoch: moved on by every write to what the lists count (certificates, licenses, members,
 * their roles, organizations), so each instance keeps a list's total (X-Total-Count) until the
 * epoch moves (db/count-cache.ts, docs/decisions.md "List totals"). The index finds the next
 * instant a license's validity window opens, when a total that reads the clock goes stale.
 */
import type { Kysely } from 'kysely';
import { createEpoch, dropEpoch } from '../epoch-triggers';

const TABLES = ['certificates', 'licenses', 'members', 'role_assignments', 'organizations'];

export async function up(db: Kysely<any>): Promise<void> {
  await createEpoch(db, 'data_epoch', TABLES);
  await db.schema.createIndex('licenses_valid_from').on('licenses').column('date_valid_from').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('licenses_valid_from').execute();
  await dropEpoch(db, 'data_epoch', TABLES);
}
