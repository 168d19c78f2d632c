/**
 * Every entity of SPEC.md §3, plus what sign-in and the master secret need.
 * Written with the schema builder so SQLite and PostgreSQL both run it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter.constructor.name === 'PostgresAdapter';

  await db.schema
    .createTable('organizations')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_name', 'text', (c) => c.notNull().unique())
    .addColumn('organization_role', 'text', (c) => c.notNull())
    .addColumn('parent_organization_id', 'text', (c) => c.references('organizations.organization_id'))
    .addColumn('website', 'text')
    .addColumn('logo_url', 'text')
    .addColumn('address', 'text')
    .addColumn('ban_note', 'text')
    .addColumn('date_organization_banned', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organizations_parent').on('organizations').column('parent_organization_id').execute();

  await db.schema
    .createTable('organization_domains')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_domains_pk', ['organization_id', 'domain'])
    .execute();
  await db.schema.createIndex('organization_domains_domain').on('organization_domains').column('domain').execute();

  await db.schema
    .createTable('members')
    .addColumn('member_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id'))
    .addColumn('member_email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('given_name', 'text')
    .addColumn('family_name', 'text')
    .addColumn('job_role', 'text')
    .addColumn('mobile_phone', 'text')
    .addColumn('office_phone', 'text')
    .addColumn('address', 'text')
    .addColumn('ban_note', 'text')
    .addColumn('date_member_banned', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('members_organization').on('members').columns(['organization_id', 'name']).execute();

  await db.schema
    .createTable('role_assignments')
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.member_id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_assignments_pk', ['member_id', 'organization_id', 'role'])
    .execute();
  await db.schema.createIndex('role_assignments_organization').on('role_assignments').column('organization_id').execute();

  await db.schema
    .createTable('certificates')
    .addColumn('distinguished_name', 'text', (c) => c.primaryKey())
    .addColumn('dn_search', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('owner_member_id', 'text', (c) => c.references('members.member_id').onDelete('set null'))
    .addColumn('approver_member_id', 'text', (c) => c.references('members.member_id').onDelete('set null'))
    .addColumn('date_not_before', 'text', (c) => c.notNull())
    .addColumn('date_not_after', 'text', (c) => c.notNull())
    .addColumn('date_approved', 'text')
    .addColumn('date_revoked', 'text')
    .addColumn('date_expiry_acknowledged', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('certificate_pem', 'text', (c) => c.notNull())
    .addColumn('serial_number', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('signature_algorithm', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('certificates_organization').on('certificates').columns(['organization_id', 'dn_search']).execute();
  await db.schema.createIndex('certificates_not_after').on('certificates').column('date_not_after').execute();

  await db.schema
    .createTable('licenses')
    .addColumn('license_id', 'text', (c) => c.primaryKey())
    .addColumn('license_name', 'text', (c) => c.notNull().unique())
    .addColumn('name_search', 'text', (c) => c.notNull())
    .addColumn('license_scope', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id'))
    .addColumn('date_valid_from', 'text', (c) => c.notNull())
    .addColumn('days_valid', 'integer', (c) => c.notNull())
    .addColumn('date_valid_until', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('date_approved', 'text')
    .addColumn('date_rejected', 'text')
    .addColumn('date_expiry_acknowledged', 'text')
    .addColumn('approver_member_id', 'text', (c) => c.references('members.member_id').onDelete('set null'))
    .addColumn('extended_by_license_id', 'text', (c) => c.references('licenses.license_id'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('date_created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('licenses_organization').on('licenses').columns(['organization_id', 'name_search']).execute();

  await db.schema
    .createTable('resources')
    .addColumn('resource_id', 'text', (c) => c.primaryKey())
    .addColumn('ordinal', 'integer', (c) => c.notNull().unique())
    .addColumn('resource_name', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_access', 'text', (c) => c.notNull())
    .addColumn('path_pattern', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .execute();

  await db.schema
    .createTable('resource_grants')
    .addColumn('resource_id', 'text', (c) => c.notNull().references('resources.resource_id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id').onDelete('cascade'))
    .addPrimaryKeyConstraint('resource_grants_pk', ['resource_id', 'organization_id'])
    .execute();

  await db.schema
    .createTable('audit_records')
    .addColumn('record_id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('organization_id', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('member_email', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .execute();
  // The journal reads one organization's records newest first, a page at a time.
  await db.schema.createIndex('audit_records_organization').on('audit_records').columns(['organization_id', 'record_id']).execute();

  await db.schema
    .createTable('accounts')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('given_name', 'text')
    .addColumn('family_name', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('date_created', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oidc_payloads')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oidc_payloads_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payloads_grant').on('oidc_payloads').column('grant_id').execute();
  await db.schema.createIndex('oidc_payloads_uid').on('oidc_payloads').column('uid').execute();
  await db.schema.createIndex('oidc_payloads_expires').on('oidc_payloads').column('expires_at').execute();

  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'settings', 'oidc_payloads', 'accounts', 'audit_records', 'resource_grants', 'resources',
    'licenses', 'certificates', 'role_assignments', 'members', 'organization_domains', 'organizations',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
