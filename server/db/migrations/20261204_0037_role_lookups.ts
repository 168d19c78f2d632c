/**
 * Lookups by role, which every event of approval work makes (modules/notifications): the operator organization by
 * its role, and an organization's holders of some roles. SQLite read all 5,000 organizations for the first (0.3-0.5
 * ms per upload) and all 2,000 role assignments of the large organization for the second. The assignments' index by
 * organization and role takes the place of the one by organization alone, which it begins with.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('organizations_role').on('organizations').column('organization_role').execute();
  await db.schema.createIndex('role_assignments_role').on('role_assignments').columns(['organization_id', 'role', 'member_id']).execute();
  await db.schema.dropIndex('role_assignments_organization').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('role_assignments_organization').on('role_assignments').column('organization_id').execute();
  await db.schema.dropIndex('role_assignments_role').execute();
  await db.schema.dropIndex('organizations_role').execute();
}
