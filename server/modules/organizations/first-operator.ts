/**
 * The first operator on an empty database (docs/decisions.md "The first operator"). A production portal starts
 * without demo data, and people join only organizations that exist, so without this nobody could sign in: with
 * OPERATOR_ADMIN_EMAIL set, the first start makes the operator organization and that person its SUPERVISOR and
 * ADMINISTRATOR over every organization, who then creates the rest in the portal. It runs under the migration lock
 * (db/migrate.ts), so of several instances starting at once one makes it; any later start finds organizations and
 * changes nothing, whatever the settings say then.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { audit } from '../../db/audit';
import * as members from '../members/service';
import * as repo from './repository';

export interface FirstOperator {
  name: string;
  email: string;
}

/** Makes the operator and its first person when the database has no organization; whether it did. */
export async function createFirstOperator(db: Db, operator: FirstOperator, now: Date): Promise<boolean> {
  if (await repo.anyOrganization(db)) return false;
  const organizationId = randomUUID();
  const memberId = randomUUID();
  const created = now.toISOString();
  await db.transaction().execute(async (tx) => {
    await repo.insertOrganization(tx, {
      organization_id: organizationId, organization_name: operator.name, organization_role: 'OPERATOR', parent_organization_id: null,
      website: null, logo_url: null, address: null, ban_note: null, date_organization_banned: null, date_created: created,
    }, []);
    // The name until the person edits it: the provider's name is not known before the first sign-in.
    await members.addMember(
      tx,
      { member_id: memberId, organization_id: organizationId, member_email: operator.email, name: operator.email, date_created: created },
      [{ role: 'SUPERVISOR', scope: 'COOPERATION' }, { role: 'ADMINISTRATOR', scope: 'COOPERATION' }],
    );
    await audit(tx, {
      reason: 'ORGANIZATION_CREATED',
      message: `Created the operator organization ${operator.name} at the portal's first start, with ${operator.email} as its supervisor and administrator (OPERATOR_ADMIN_EMAIL).`,
      organization_id: organizationId,
      member_email: null,
      now,
    });
  });
  return true;
}
