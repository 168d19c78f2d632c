/**
 * The ends of time-boxed roles (issue 33), part of the time scan (scan.ts): `role.expiring` 7 days and 1 day before
 * a role's `date_until`, and at the end the assignment removed and the removal journaled (`role.expired`). The role
 * stops counting at its instant whether or not this has run (db/role-end.ts); this removes it and tells people.
 *
 * Exactly once with several instances: an "expiring" event writes its mark first (the marks' key refuses a second,
 * as for certificates), and an expiry is journaled only by the scan whose delete removed the row; a second scan, on
 * this instance or another, deletes nothing and journals nothing. A role extended meanwhile has another end and is
 * not deleted.
 */
import { sql } from 'kysely';
import type { Tx } from '../../db/database';
import { audit, recordEvent } from '../../db/audit';
import { memberSubject } from '../members/service';
import { formatUtcDateTime } from '../../../common/dates';

const DAY = 86_400_000;
/** Days before the end at which the holder and the administrators are told. */
const ROLE_EXPIRY_DAYS = [7, 1] as const;

interface Ending {
  member_id: string;
  member_email: string;
  organization_id: string;
  organization_name: string;
  role: string;
  scope: string;
  date_until: string;
}

const endings = (tx: Tx) => tx
  .selectFrom('role_assignments as r')
  .innerJoin('members as m', 'm.member_id', 'r.member_id')
  .innerJoin('organizations as o', 'o.organization_id', 'r.organization_id')
  .select(['r.member_id', 'm.member_email', 'r.organization_id', 'o.organization_name', 'r.role', 'r.scope', sql<string>`r.date_until`.as('date_until')]);

const subjectOf = (r: Ending) => memberSubject(r, { role: r.role, scope: r.scope, until: r.date_until });

/** Makes the "expiring" events whose instant lies in (from, now]; answers how many. */
export async function roleExpiring(tx: Tx, from: number, now: Date): Promise<number> {
  let made = 0;
  for (const days of ROLE_EXPIRY_DAYS) {
    const shift = days * DAY;
    const rows: Ending[] = await endings(tx)
      .where('r.date_until', '>', new Date(from + shift).toISOString())
      .where('r.date_until', '<=', new Date(now.getTime() + shift).toISOString())
      // A clock that jumps past the end makes "expired" instead.
      .where('r.date_until', '>', now.toISOString())
      .execute();
    for (const r of rows) {
      const mark = await tx.insertInto('event_marks')
        .values({ subject_type: 'role', subject_id: `${r.member_id}/${r.organization_id}/${r.role}`, kind: 'expiring', days, date_end: r.date_until, date_created: now.toISOString() })
        .onConflict((oc) => oc.doNothing()).executeTakeFirst();
      if (Number(mark.numInsertedOrUpdatedRows ?? 0) === 0) continue;
      const message = `${r.role} of ${r.member_email} in ${r.organization_name} ends in ${days} day${days === 1 ? '' : 's'}, on ${formatUtcDateTime(r.date_until)}.`;
      await recordEvent(tx, { type: 'role.expiring', organization_id: r.organization_id, subject: subjectOf(r), now, data: { message, days, actor_email: null } });
      made++;
    }
  }
  return made;
}

/** Removes every role whose end has come, journaling each once; answers how many. */
export async function roleExpired(tx: Tx, now: Date): Promise<number> {
  const rows: Ending[] = await endings(tx).where('r.date_until', '<=', now.toISOString()).orderBy('r.date_until').execute();
  let made = 0;
  for (const r of rows) {
    const gone = await tx.deleteFrom('role_assignments')
      .where('member_id', '=', r.member_id).where('organization_id', '=', r.organization_id).where('role', '=', r.role as never)
      .where('date_until', '=', r.date_until)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) continue;
    await audit(tx, {
      reason: 'ROLE_EXPIRED', message: `${r.role} of ${r.member_email} ended as scheduled at ${formatUtcDateTime(r.date_until)}.`,
      organization_id: r.organization_id, member_email: null, now, subject: subjectOf(r),
    });
    made++;
  }
  return made;
}
