/** Runs the migrations in name order. They are imported, not read from disk, so any runner can load them. */
import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { isPostgres, type Db } from './database';
import { withoutStatementLimits } from './pg-pool';
import * as initial from './migrations/20261121_0001_initial';
import * as licenseNames from './migrations/20261121_0002_license_names';
import * as journalSearch from './migrations/20261122_0003_journal_search';
import * as accessEpoch from './migrations/20261123_0004_access_epoch';
import * as journalSequence from './migrations/20261123_0005_journal_sequence';
import * as listIndexes from './migrations/20261123_0006_list_indexes';
import * as exportEpoch from './migrations/20261123_0007_export_epoch';
import * as archiveIndex from './migrations/20261123_0008_archive_index';
import * as pendingIndexes from './migrations/20261123_0009_pending_indexes';
import * as dataEpoch from './migrations/20261123_0010_data_epoch';
import * as journalTextIndex from './migrations/20261123_0011_journal_text_index';
import * as memberIndexes from './migrations/20261123_0012_member_indexes';
import * as nameTextIndex from './migrations/20261123_0013_name_text_index';
import * as journalTrigramStatistics from './migrations/20261123_0014_journal_trigram_statistics';
import * as archiveVersions from './migrations/20261123_0015_archive_versions';
import * as exportEpochNotify from './migrations/20261125_0016_export_epoch_notify';
import * as sortIndexes from './migrations/20261126_0017_sort_indexes';
import * as notifications from './migrations/20261127_0018_notifications';
import * as journalEpoch from './migrations/20261127_0019_journal_epoch';
import * as domainsDataEpoch from './migrations/20261127_0020_domains_data_epoch';
import * as expiringIndexes from './migrations/20261127_0021_expiring_indexes';
import * as organizationVersions from './migrations/20261128_0022_organization_versions';
import * as licenseTimeZone from './migrations/20261129_0023_license_time_zone';
import * as certificateFingerprints from './migrations/20261129_0024_certificate_fingerprints';
import * as apiKeys from './migrations/20261130_0025_api_keys';
import * as gatewayTokens from './migrations/20261130_0026_gateway_tokens';
import * as invitations from './migrations/20261130_0027_invitations';
import * as roleUntil from './migrations/20261130_0028_role_until';
import * as supportAccess from './migrations/20261201_0029_support_access';
import * as approvalDigest from './migrations/20261201_0030_approval_digest';
import * as journalPageIndex from './migrations/20261201_0033_journal_page_index';
import * as organizationNotices from './migrations/20261202_0034_organization_notices';
import * as certificateNameOrder from './migrations/20261202_0035_certificate_name_order';
import * as organizationListCounts from './migrations/20261203_0036_organization_list_counts';
import * as roleLookups from './migrations/20261204_0037_role_lookups';

const migrations: Record<string, Migration> = {
  '20261121_0001_initial': initial,
  '20261121_0002_license_names': licenseNames,
  '20261122_0003_journal_search': journalSearch,
  '20261123_0004_access_epoch': accessEpoch,
  '20261123_0005_journal_sequence': journalSequence,
  '20261123_0006_list_indexes': listIndexes,
  '20261123_0007_export_epoch': exportEpoch,
  '20261123_0008_archive_index': archiveIndex,
  '20261123_0009_pending_indexes': pendingIndexes,
  '20261123_0010_data_epoch': dataEpoch,
  '20261123_0011_journal_text_index': journalTextIndex,
  '20261123_0012_member_indexes': memberIndexes,
  '20261123_0013_name_text_index': nameTextIndex,
  '20261123_0014_journal_trigram_statistics': journalTrigramStatistics,
  '20261123_0015_archive_versions': archiveVersions,
  '20261125_0016_export_epoch_notify': exportEpochNotify,
  '20261126_0017_sort_indexes': sortIndexes,
  '20261127_0018_notifications': notifications,
  '20261127_0019_journal_epoch': journalEpoch,
  '20261127_0020_domains_data_epoch': domainsDataEpoch,
  '20261127_0021_expiring_indexes': expiringIndexes,
  '20261128_0022_organization_versions': organizationVersions,
  '20261129_0023_license_time_zone': licenseTimeZone,
  '20261129_0024_certificate_fingerprints': certificateFingerprints,
  '20261130_0025_api_keys': apiKeys,
  '20261130_0026_gateway_tokens': gatewayTokens,
  '20261130_0027_invitations': invitations,
  '20261130_0028_role_until': roleUntil,
  '20261201_0029_support_access': supportAccess,
  '20261201_0030_approval_digest': approvalDigest,
  '20261201_0033_journal_page_index': journalPageIndex,
  '20261202_0034_organization_notices': organizationNotices,
  '20261202_0035_certificate_name_order': certificateNameOrder,
  '20261203_0036_organization_list_counts': organizationListCounts,
  '20261204_0037_role_lookups': roleLookups,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The migrations this code knows, in order: a restored backup must have no others (scripts/restore.ts). */
export const MIGRATION_NAMES = Object.keys(migrations).sort();

export const migrator = (db: Db) => new Migrator({ db, provider });

export async function migrateToLatest(db: Db): Promise<void> {
  const { error, results } = await migrator(db).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  // A migration that failed is named; a database that did not answer is its own error (start-up retries it).
  if (failed) throw new MigrationError(`Migration ${failed.migrationName} failed: ${(error as Error)?.message ?? error}`);
  if (error) throw error;
}

/** A migration ran and failed (not a connection that failed before any ran). */
export class MigrationError extends Error {}

/**
 * Migrations, then `after` (the demo seed), once when several instances start together on one
 * PostgreSQL: each takes a session advisory lock on a connection of its own, so the others wait
 * and then find nothing left to do. Kysely's migrator takes an advisory lock of its own around
 * running the migrations (PostgresAdapter.acquireMigrationLock); this one also covers the seed,
 * which checks for an empty database and must not run twice. A process that dies drops its
 * connection and with it the lock. SQLite serves one instance only: no lock.
 *
 * On connections without the statement limits (db/pg-pool.ts): an index on a large table, or the
 * wait for another instance's migrations, takes longer than a request may.
 */
export async function migrateOnce(db: Db, after?: () => Promise<unknown>): Promise<void> {
  if (!isPostgres(db)) {
    await migrateToLatest(db);
    await after?.();
    return;
  }
  await withoutStatementLimits(() => db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext('customer-portal:migrate'))`.execute(connection);
    try {
      await migrateToLatest(db);
      await after?.();
    } finally {
      await sql`select pg_advisory_unlock(hashtext('customer-portal:migrate'))`.execute(connection).catch(() => undefined);
    }
  }));
}
