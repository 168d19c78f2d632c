/**
 * The ends of support accesses (issue 33 item 2), part of the time scan (notifications/scan.ts). An access stops
 * counting at its instant whether or not this has run (auth/actor.ts reads `date_until`), and a request lapses
 * unanswered after SUPPORT_REQUEST_WAITS_HOURS whether or not this has run (repository.ts `waits`); this marks each
 * EXPIRED and journals that on both sides. Exactly once with several instances: only the scan whose conditional update changed
 * the row journals it, as role-ends.ts does for roles.
 */
import { formatUtcDateTime } from '../../../common/dates';
import { SUPPORT_REQUEST_WAITS_HOURS, supportRequestLapsesAt } from '../../../common/policy';
import type { Tx } from '../../db/database';
import * as repo from './repository';
import { journalBoth } from './service';

export async function supportExpired(tx: Tx, now: Date): Promise<number> {
  let made = 0;
  for (const row of await repo.endedByTime(tx, now.toISOString())) {
    if (!(await repo.markExpired(tx, row.request_id, row.date_until!))) continue;
    const glass = Number(row.break_glass) ? ' (BREAK GLASS)' : '';
    await journalBoth(tx, 'SUPPORT_ACCESS_EXPIRED', row,
      `Support access #${row.request_id}${glass} of ${row.requester_name} (${row.requester_email}) to ${row.organization_name} ended as scheduled at ${formatUtcDateTime(row.date_until!)}.`,
      null, now);
    made++;
  }
  for (const row of await repo.lapsedByTime(tx, now.toISOString())) {
    if (!(await repo.markLapsed(tx, row.request_id, row.date_requested))) continue;
    await journalBoth(tx, 'SUPPORT_ACCESS_EXPIRED', row,
      `Support request #${row.request_id} of ${row.requester_name} (${row.requester_email}) to ${row.organization_name} as ${row.role} lapsed at ${formatUtcDateTime(supportRequestLapsesAt(row.date_requested))}: nobody decided within ${SUPPORT_REQUEST_WAITS_HOURS} hours.`,
      null, now);
    made++;
  }
  return made;
}
