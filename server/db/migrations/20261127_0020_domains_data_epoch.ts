/**
 * The trusted domains move the data epoch too. A save that changes an organization's domains alone
 * writes organization_domains and not the organization's row, so a kept page of the organization list
 * (db/page-cache.ts) showed the old domains until some other write moved the epoch; so did a domain
 * written by another program. Now every write to the table moves it, whoever writes.
 */
import type { Kysely } from 'kysely';
import { addEpochTriggers, dropEpochTriggers } from '../epoch-triggers';

const TABLES = ['organization_domains'];

export async function up(db: Kysely<any>): Promise<void> {
  await addEpochTriggers(db, 'data_epoch', TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropEpochTriggers(db, 'data_epoch', TABLES);
}
