/**
 * The people the real-use scenarios act as: bearer tokens signed with the built-in provider's key
 * (as any sign-in's are verified) for members who exist in the data set, with the roles the data set
 * gave them (scripts/bench/dataset.ts: an organization's first member is its ADMINISTRATOR, then
 * ISSUER, APPROVER or MEMBER), read from the run's database rather than assumed.
 */
import { SignJWT, importJWK, type JWK } from 'jose';
import { BUILT_IN_AUDIENCE } from '../../server/config';
import type { PreparedDatabase } from './database';

export async function token(key: JWK, issuer: string, email: string): Promise<string> {
  return new SignJWT({ email, email_verified: true, name: email.split('@')[0] })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setAudience(BUILT_IN_AUDIENCE)
    .setSubject(email)
    .setIssuedAt()
    .setExpirationTime('6h')
    .sign(await importJWK(key, 'ES256'));
}

export interface Person {
  memberId: string;
  email: string;
  role: string;
  organizationId: string;
  bearer: string;
}

/** An organization as the scenarios use it: its people by role. */
export interface Organization {
  id: string;
  people: Person[];
}

interface MemberRow {
  member_id: string;
  member_email: string;
  organization_id: string;
  role: string;
}

/**
 * Customers' people, not banned, in organizations not banned, with their one role; `count`
 * organizations spread evenly over all of them (the large one first), each with an ADMINISTRATOR.
 */
export async function organizationsWithPeople(database: PreparedDatabase, issuer: string, count: number): Promise<Organization[]> {
  const rows = await database.query<MemberRow>(
    `select m.member_id, m.member_email, m.organization_id, r.role
       from members m
       join role_assignments r on r.member_id = m.member_id and r.organization_id = m.organization_id
       join organizations o on o.organization_id = m.organization_id
      where o.organization_role = 'CUSTOMER' and o.date_organization_banned is null and m.date_member_banned is null
      order by m.organization_id, m.member_email`,
  );
  const byOrganization = new Map<string, MemberRow[]>();
  for (const row of rows) byOrganization.set(row.organization_id, [...(byOrganization.get(row.organization_id) ?? []), row]);
  const large = database.facts.largeOrganizationId;
  const eligible = [...byOrganization.keys()].filter((id) => id !== large && byOrganization.get(id)!.some((r) => r.role === 'ADMINISTRATOR'));
  const step = Math.max(1, eligible.length / Math.max(1, count - 1));
  const chosen = [large, ...Array.from({ length: Math.min(count - 1, eligible.length) }, (_, i) => eligible[Math.floor(i * step)])];
  const organizations: Organization[] = [];
  for (const id of chosen) {
    // The large organization has 2,000 members: a dozen of each role is people enough.
    const members = id === large ? firstOfEachRole(byOrganization.get(id) ?? [], 12) : byOrganization.get(id) ?? [];
    const people = await Promise.all(members.map(async (m) => ({
      memberId: m.member_id, email: m.member_email, role: m.role, organizationId: id, bearer: await token(database.signingKey, issuer, m.member_email),
    })));
    organizations.push({ id, people });
  }
  return organizations;
}

function firstOfEachRole(rows: MemberRow[], each: number): MemberRow[] {
  const taken = new Map<string, number>();
  return rows.filter((r) => {
    const n = taken.get(r.role) ?? 0;
    taken.set(r.role, n + 1);
    return n < each;
  });
}

/** The operator's staff of the demo seed, by the name of their mailbox. */
export async function staff(database: PreparedDatabase, issuer: string): Promise<Record<'supervisor' | 'approver' | 'devops', string>> {
  const sign = (email: string) => token(database.signingKey, issuer, email);
  return {
    supervisor: await sign('supervisor@operator.example'),
    approver: await sign('approver@operator.example'),
    devops: await sign('devops@operator.example'),
  };
}
