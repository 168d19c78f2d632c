/**
 * Whether a role assignment counts at an instant (issue 33): a standing one always, a time-boxed one before its
 * `date_until` and never from it on, whether or not the time scan has removed it yet (notifications/scan.ts). Every
 * query that reads roles to decide who may act or who is told uses it (auth/actor.ts reads the same condition).
 */
import { sql } from 'kysely';

export function roleCounts(alias: string, now: Date) {
  const until = sql.ref(`${alias}.date_until`);
  return sql<boolean>`(${until} is null or ${until} > ${now.toISOString()})`;
}
