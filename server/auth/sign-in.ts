/**
 * The statement of a person's sign-in: in one read, the versions the request depends on (db/versions.ts), the member
 * found by email with their organization, and their roles that count at the request's instant (db/role-end.ts's
 * condition) with the vendor support accesses that run then, each as its role in its one organization
 * (modules/support-access; auth/actor.ts loadAssignments reads the same for a person who just joined). One statement is one snapshot, so the member and the roles are exactly as new as the versions, and
 * a ban, a role change or a role's end is seen at the very next call on every instance without anything kept.
 */
import type { OrganizationRole, Role, Scope } from '../../common/enums';
import type { Assignment } from '../../common/policy';
import { readRows, type Queryable } from '../db/database';
import { versionsOf, versionsText, type Versions } from '../db/versions';

const MEMBER = `select 'member', m.organization_id, c.version, m.member_id, m.name, m.member_email, m.date_member_banned,
    o.organization_name, o.organization_role, o.date_organization_banned
  from members m join organizations o on o.organization_id = m.organization_id
  join organization_counters c on c.organization_id = m.organization_id
  where m.member_email = ?`;

const ROLES = `select 'role', r.organization_id, null, r.role, r.scope, o.organization_role, o.organization_name, null, null, null
  from members m join role_assignments r on r.member_id = m.member_id
  join organizations o on o.organization_id = r.organization_id
  where m.member_email = ? and (r.date_until is null or r.date_until > ?)`;

/** Text in every engine: the union's columns are the member's, all text. */
const SUPPORT = `select 'support', s.organization_id, null, s.role, 'ORGANIZATION', o.organization_role, o.organization_name,
    cast(s.request_id as text), cast(s.break_glass as text), null
  from members m join support_requests s on s.member_id = m.member_id
  join organizations o on o.organization_id = s.organization_id
  where m.member_email = ? and s.state = 'APPROVED' and s.date_until > ?`;

/** The member's columns beyond `kind, organization_id, version` (c1…c7 in the union). */
const WIDTH = 7;

export interface SignedInMember {
  member_id: string;
  name: string;
  member_email: string;
  date_member_banned: string | null;
  organization_id: string;
  organization_name: string;
  organization_role: string;
  date_organization_banned: string | null;
}

type SignInRole = Assignment & { organization_name: string };

export interface SignIn {
  versions: Versions;
  /** Undefined: no member has this email (yet). */
  member?: SignedInMember;
  /** The member's roles and support accesses that count at the instant asked for, by organization name, then role. */
  roles: Assignment[];
}

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** The sign-in of `email` at `now`, with the versions of the path's organizations `pathIds`. */
export async function readSignIn(db: Queryable, email: string, now: Date, pathIds: readonly string[]): Promise<SignIn> {
  const ids = [...new Set(pathIds)];
  const at = now.toISOString();
  const rows = await readRows(db, versionsText([MEMBER, ROLES, SUPPORT], ids.length, WIDTH), [email, email, at, email, at, ...ids]);
  const signIn: SignIn = { versions: versionsOf(rows), roles: [] };
  const roles: SignInRole[] = [];
  for (const row of rows) {
    if (row.kind === 'member') {
      signIn.versions.memberOrganization = String(row.organization_id);
      signIn.member = {
        member_id: String(row.c1), name: String(row.c2), member_email: String(row.c3), date_member_banned: text(row.c4),
        organization_id: String(row.organization_id), organization_name: String(row.c5), organization_role: String(row.c6),
        date_organization_banned: text(row.c7),
      };
    } else if (row.kind === 'role' || row.kind === 'support') {
      const role: SignInRole = {
        organization_id: String(row.organization_id), role: row.c1 as Role, scope: row.c2 as Scope,
        organization_role: row.c3 as OrganizationRole, organization_name: String(row.c4),
      };
      if (row.kind === 'support') {
        role.support_request = Number(row.c5);
        if (Number(row.c6)) role.break_glass = true;
      }
      roles.push(role);
    }
  }
  roles.sort((a, b) => (a.organization_name === b.organization_name ? cmp(a.role, b.role) || (a.support_request ?? 0) - (b.support_request ?? 0) : cmp(a.organization_name, b.organization_name)));
  signIn.roles = roles.map(({ organization_name: _, ...assignment }) => assignment);
  return signIn;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
