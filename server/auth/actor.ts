/**
 * From a verified identity to the actor of a request: the member matched by email, their role
 * assignments, and the bans that shut them out (DECISIONS.md "Sign-in"). A known member is read in one statement
 * (auth/sign-in.ts); the rest is for a person's first sign-in, by invitation or trusted domain.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/database';
import { sql } from 'kysely';
import type { Actor, Assignment } from '../../common/policy';
import type { OrganizationRole, Scope } from '../../common/enums';
import { audit } from '../db/audit';
import { roleCounts } from '../db/role-end';
import type { Versions } from '../db/versions';
import { forbidden } from '../errors';
import type { Identity } from './tokens';
import { acceptAtSignIn } from './invitation-sign-in';
import { readSignIn, type SignedInMember } from './sign-in';

export interface RequestActor extends Actor {
  email: string;
  name: string;
  organization_name: string;
  /** The versions read for this request (db/versions.ts): what it keeps or finds kept is valid for them. */
  versions: Versions;
}

/**
 * The member's assignments that count at `now`: a time-boxed one up to the instant before its end, never from its end
 * on (issue 33), whether or not the time scan has removed it yet; and, in the same statement, the member's vendor
 * support accesses that run at `now` (issue 33 item 2), each as the granted role in that one organization until the
 * instant before its end, whether or not the time scan has marked it expired (support-access/expiry.ts).
 */
export async function loadAssignments(db: Queryable, memberId: string, now: Date) {
  const roles = db
    .selectFrom('role_assignments as r')
    .innerJoin('organizations as o', 'o.organization_id', 'r.organization_id')
    .select([
      'r.organization_id', 'o.organization_role', 'o.organization_name', 'r.role', 'r.scope', 'r.date_until',
      sql<number | null>`cast(null as integer)`.as('support_request'), sql<number>`0`.as('break_glass'),
    ])
    .where('r.member_id', '=', memberId)
    .where(roleCounts('r', now));
  const support = db
    .selectFrom('support_requests as s')
    .innerJoin('organizations as o', 'o.organization_id', 's.organization_id')
    .select([
      's.organization_id', 'o.organization_role', 'o.organization_name', 's.role', sql<Scope>`'ORGANIZATION'`.as('scope'), 's.date_until',
      's.request_id as support_request', 's.break_glass',
    ])
    .where('s.member_id', '=', memberId)
    .where('s.state', '=', 'APPROVED')
    .where('s.date_until', '>', now.toISOString());
  return roles.unionAll(support).orderBy('organization_name').orderBy('role').orderBy('support_request').execute();
}

/** An assignment as the policy reads it, from a row of loadAssignments. */
export function assignmentOf(row: Awaited<ReturnType<typeof loadAssignments>>[number]): Assignment {
  const { organization_id, organization_role, role, scope, support_request, break_glass } = row;
  const assignment: Assignment = { organization_id, organization_role, role, scope };
  if (support_request !== null && support_request !== undefined) {
    assignment.support_request = Number(support_request);
    if (Number(break_glass)) assignment.break_glass = true;
  }
  return assignment;
}

async function findMember(db: Queryable, email: string) {
  return db
    .selectFrom('members as m')
    .innerJoin('organizations as o', 'o.organization_id', 'm.organization_id')
    .select([
      'm.member_id', 'm.name', 'm.member_email', 'm.date_member_banned', 'm.organization_id',
      'o.organization_name', 'o.organization_role', 'o.date_organization_banned',
    ])
    .where('m.member_email', '=', email)
    .executeTakeFirst();
}

/** Admits a person through a trusted domain of exactly one organization; null when none trusts it. */
async function signUpByDomain(db: Db, identity: Identity, now: Date) {
  const domain = identity.email.split('@')[1] ?? '';
  const trusting = await db
    .selectFrom('organization_domains as d')
    .innerJoin('organizations as o', 'o.organization_id', 'd.organization_id')
    .select(['o.organization_id', 'o.organization_name', 'o.date_organization_banned'])
    .where('d.domain', '=', domain)
    .orderBy('o.date_created')
    .execute();
  // A domain trusted by two organizations does not say which one: nobody is admitted by guess.
  if (trusting.length !== 1) return null;
  const organization = trusting[0];
  // A banned organization admits nobody new: refuse before anything is written.
  if (organization.date_organization_banned) {
    throw forbidden(`${organization.organization_name} is banned from the portal.`, 'AccessError');
  }
  const name = identity.name ?? ([identity.given_name, identity.family_name].filter(Boolean).join(' ') || identity.email);
  try {
    await db.transaction().execute(async (tx) => {
      const memberId = randomUUID();
      await tx
        .insertInto('members')
        .values({
          member_id: memberId,
          organization_id: organization.organization_id,
          member_email: identity.email,
          name,
          given_name: identity.given_name,
          family_name: identity.family_name,
          job_role: null, mobile_phone: null, office_phone: null, address: null,
          ban_note: null, date_member_banned: null,
          date_created: now.toISOString(),
        })
        .execute();
      await tx
        .insertInto('role_assignments')
        .values({ member_id: memberId, organization_id: organization.organization_id, role: 'MEMBER', scope: 'ORGANIZATION', date_assigned: now.toISOString() })
        .execute();
      await audit(tx, {
        reason: 'MEMBER_SIGNED_UP',
        message: `${identity.email} joined ${organization.organization_name} through the trusted domain ${domain}.`,
        organization_id: organization.organization_id,
        member_email: identity.email,
        now,
      });
    });
  } catch (error) {
    // Two first calls at once: the other one inserted the member; use it.
    const existing = await findMember(db, identity.email);
    if (!existing) throw error;
  }
  return findMember(db, identity.email);
}

/** What a person whose provider has not verified their email is told. */
export const UNVERIFIED_EMAIL = 'Your sign-in provider has not verified your email address, so the portal cannot tell whose membership it is. Verify the address with your provider, then sign in again.';

/**
 * The actor behind a verified identity, read afresh on every request in one statement (auth/sign-in.ts) with the
 * versions of `alsoRead`, the organizations the request needs besides (the one in its path).
 */
export async function resolveActor(db: Db, identity: Identity, now: Date, alsoRead: readonly string[] = []): Promise<RequestActor> {
  // The email is the only link between a token and a member (and a trusted domain): an address
  // anyone could have typed into their provider's profile proves nothing (DECISIONS.md "Sign-in").
  if (!identity.email_verified) throw forbidden(UNVERIFIED_EMAIL, 'AccessError');
  const { versions, member: found, roles: counted } = await readSignIn(db, identity.email, now, alsoRead);
  let member: SignedInMember | undefined = found;
  let roles: Assignment[] = counted;
  if (!member) {
    // No membership yet: a pending invitation first (it names the organization and the role), else a trusted domain.
    member = ((await acceptAtSignIn(db, identity, now)) ? await findMember(db, identity.email) : undefined)
      ?? (await signUpByDomain(db, identity, now)) ?? undefined;
    if (!member) throw forbidden('Your email address belongs to no organization of the portal.', 'AuthWelcome');
    roles = (await loadAssignments(db, member.member_id, now)).map(assignmentOf);
  }
  if (member.date_organization_banned) {
    throw forbidden(`${member.organization_name} is banned from the portal.`, 'AccessError');
  }
  if (member.date_member_banned) {
    throw forbidden('Your membership is banned.', 'AccessError');
  }
  return {
    member_id: member.member_id,
    email: member.member_email,
    name: member.name,
    organization_id: member.organization_id,
    organization_name: member.organization_name,
    organization_role: member.organization_role as OrganizationRole,
    roles,
    versions,
  };
}
