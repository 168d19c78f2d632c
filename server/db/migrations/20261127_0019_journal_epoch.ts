/**
 * The journal epoch: moved on by every record written to the journal, by whoever, on any instance.
 * It is read with the access and data epochs in the one statement of every sign-in
 * (db/access-epoch.ts), so a kept journal page is found without reading the journal's size first
 * (docs/decisions.md "List pages").
 */
import type { Kysely } from 'kysely';
import { createEpoch, dropEpoch } from '../epoch-triggers';

const TABLES = ['audit_records'];

export async function up(db: Kysely<any>): Promise<void> {
  await createEpoch(db, 'journal_epoch', TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropEpoch(db, 'journal_epoch', TABLES);
}
