/**
 * When the pending acknowledgements change by time alone: the next instant an approved, not
 * acknowledged certificate or license expires. A seek in the partial index of each list
 * (migration 0009), whose WHERE these queries repeat.
 */
import { sql } from 'kysely';
import type { Queryable } from '../../db/database';
import { certificateSql, licenseSql } from '../../db/status-sql';

/** The next end of validity after `now` among the rows that would then wait, in ms, or Infinity. */
export async function nextExpiry(db: Queryable, list: 'certificates' | 'licenses', now: Date): Promise<number> {
  const at = now.toISOString();
  const row =
    list === 'certificates'
      ? await db
          .selectFrom('certificates')
          .select(sql<string | null>`min(date_not_after)`.as('at'))
          .where(certificateSql('certificates').awaitingExpiry(at))
          .executeTakeFirst()
      : await db
          .selectFrom('licenses')
          .select(sql<string | null>`min(date_valid_until)`.as('at'))
          .where(licenseSql('licenses').awaitingExpiry(at))
          .executeTakeFirst();
  return row?.at ? Date.parse(String(row.at)) : Infinity;
}
