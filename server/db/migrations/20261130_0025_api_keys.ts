/**
 * Organization API keys (issue 32, docs/decisions.md "API keys").
 *
 * - `api_keys`: one row per key, never deleted (a revoked key stays listed for the audit trail). The secret is
 *   stored only as its SHA-256 (`secret_hash`, unique: the sign-in finds a key by it). `roles` is the JSON list
 *   of { role, scope } the key acts with in its organization. The creator's name and email are kept as they were,
 *   so the list still names who made a key after that member is gone.
 * - `api_key_windows`: requests per key per minute window, counted in the database so that every instance adds
 *   to the same number (the limit holds across instances); old windows are deleted as new ones start.
 *
 * Creating and revoking a key move its organization's version (the same triggers as every owned table, but on
 * insert and on a change of `date_revoked` only): what the sign-in keeps of a key is then stale on every instance
 * at once. Noting the last use does not move it, or each key's minute would make its organization's answers stale.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

/** Adds one to the version of organization `id` (an SQL expression), as migration 0022's triggers do. */
const bump = (id: string) => `insert into organization_counters (organization_id, journal_records, version) select ${id}, 0, 1 where ${id} is not null
  on conflict (organization_id) do update set version = organization_counters.version + 1`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('api_keys')
    .addColumn('api_key_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('read_only', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('created_by_email', 'text', (c) => c.notNull())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_expires', 'text', (c) => c.notNull())
    .addColumn('date_last_used', 'text')
    .addColumn('last_used_from', 'text')
    .addColumn('date_revoked', 'text')
    .execute();
  await db.schema.createIndex('api_keys_organization').on('api_keys').columns(['organization_id', 'date_created']).execute();
  // The expiry scan's notices (14, 7, 1 days) look keys up by their end.
  await db.schema.createIndex('api_keys_expires').on('api_keys').column('date_expires').execute();

  await db.schema.createTable('api_key_windows')
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.api_key_id').onDelete('cascade'))
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_key_windows_pk', ['api_key_id', 'window_start'])
    .execute();

  if (isPostgres(db)) {
    // bump_organization_version() is migration 0022's: the row's organization, before and after.
    await sql`create trigger api_keys_version after insert or update of date_revoked on api_keys
      for each row execute function bump_organization_version()`.execute(db);
  } else {
    await sql.raw(`create trigger api_keys_insert_version after insert on api_keys begin ${bump('new.organization_id')}; end`).execute(db);
    await sql.raw(`create trigger api_keys_revoke_version after update of date_revoked on api_keys begin ${bump('new.organization_id')}; end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`drop trigger if exists api_keys_version on api_keys`.execute(db);
  else for (const name of ['api_keys_insert_version', 'api_keys_revoke_version']) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await db.schema.dropTable('api_key_windows').execute();
  await db.schema.dropTable('api_keys').execute();
}
