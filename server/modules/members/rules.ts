/** The rule several member changes share that needs the data: the last administrator. */
import type { Tx } from '../../db/database';
import { lockRows } from '../../db/lock';
import type { Role } from '../../../common/enums';
import { conflict } from '../../errors';
import { activeAdministrators, administeredBy } from './repository';

/**
 * An organization keeps at least one ADMINISTRATOR or SUPERVISOR who is not banned, so someone
 * can still manage its members and roles. `losing` is what the change takes away: every role of
 * the member (ban, remove) or one role in one organization (unassign). An organization that has
 * none already (a customer run by its partner) is not held to it.
 */
export async function keepAnAdministrator(tx: Tx, losing: { member_id: string; organization_id?: string; role?: Role }) {
  const organizations = losing.organization_id ? [losing.organization_id] : await administeredBy(tx, losing.member_id);
  // Two administrators banned at once would each still count the other: locking the organizations
  // makes the second change count after the first has committed (db/lock.ts).
  await lockRows(tx, 'organizations', 'organization_id', organizations);
  const active = await activeAdministrators(tx, organizations);
  const lost = (a: { member_id: string; role: Role }) => a.member_id === losing.member_id && (!losing.role || a.role === losing.role);
  for (const organizationId of organizations) {
    const here = active.filter((a) => a.organization_id === organizationId);
    if (here.some(lost) && !here.some((a) => !lost(a))) {
      throw conflict(
        `${here[0].organization_name} would be left without an administrator or supervisor; give another member that role first.`,
      );
    }
  }
}
