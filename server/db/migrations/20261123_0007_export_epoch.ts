/**
 * The export epoch: moved on by every write to what the gateway's routes.hcl and certificate
 * archive are made of (certificates, organizations for bans, resources and their grants), so each
 * instance keeps the last export until the epoch moves or a certificate's validity window opens or
 * closes (docs/decisions.md "Export cache"). The index finds the next window to open.
 */
import type { Kysely } from 'kysely';
import { createEpoch, dropEpoch } from '../epoch-triggers';

const TABLES = ['certificates', 'organizations', 'resources', 'resource_grants'];

export async function up(db: Kysely<any>): Promise<void> {
  await createEpoch(db, 'export_epoch', TABLES);
  await db.schema.createIndex('certificates_not_before').on('certificates').column('date_not_before').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('certificates_not_before').execute();
  await dropEpoch(db, 'export_epoch', TABLES);
}
