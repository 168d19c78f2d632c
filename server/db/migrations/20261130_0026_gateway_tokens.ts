/**
 * Gateway (API) tokens recorded (issue 34 item 3, docs/decisions.md "API tokens"): one row per token made by
 * POST /api/token, keyed by its jti, so staff can list and revoke them. The token text itself is never stored.
 *
 * A revocation moves the export epoch (migration 0007): the epoch is what every instance already follows
 * cheaply for the gateways' polls (NOTIFY on PostgreSQL, migration 0016), and the verified tokens each process
 * keeps are kept for one epoch (modules/tokens/api-tokens.ts), so the next poll on any instance checks the row
 * again. Only `date_revoked` moves it: "last used" is written once a minute and must not rebuild the exports.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('token_id', 'text', (c) => c.primaryKey())
    .addColumn('token_name', 'text', (c) => c.notNull())
    .addColumn('upn', 'text', (c) => c.notNull())
    /** JSON array of groups. */
    .addColumn('groups', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_expires', 'text', (c) => c.notNull())
    .addColumn('date_last_used', 'text')
    .addColumn('date_revoked', 'text')
    .addColumn('revoked_by', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_created').on('api_tokens').columns(['date_created', 'token_id']).execute();
  if (isPostgres(db)) {
    // bump_export_epoch() notifies the other instances (migration 0016).
    await sql`create trigger api_tokens_export_epoch after update of date_revoked on api_tokens
      for each statement execute function bump_export_epoch()`.execute(db);
  } else {
    await sql`create trigger api_tokens_revoked_export_epoch after update of date_revoked on api_tokens
      begin update export_epoch set epoch = epoch + 1 where id = 1; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`drop trigger if exists api_tokens_export_epoch on api_tokens`.execute(db);
  else await sql`drop trigger if exists api_tokens_revoked_export_epoch`.execute(db);
  await db.schema.dropTable('api_tokens').execute();
}
