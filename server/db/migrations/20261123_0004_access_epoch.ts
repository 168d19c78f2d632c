/**
 * The access epoch: one number that every change of who may do what moves on. Instances cache
 * verified actors and organization ancestry per epoch and read this one row per request, so a ban,
 * a role change or a moved organization takes effect at the very next call on every instance
 * (docs/decisions.md "Access cache").
 *
 * Triggers move it, not the services: every write to members, role_assignments or organizations,
 * whoever makes it (a service, a migration, an operator with psql), invalidates the caches.
 */
import type { Kysely } from 'kysely';
import { createEpoch, dropEpoch } from '../epoch-triggers';

const TABLES = ['members', 'role_assignments', 'organizations'];

export async function up(db: Kysely<any>): Promise<void> {
  await createEpoch(db, 'access_epoch', TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropEpoch(db, 'access_epoch', TABLES);
}
