/**
 * Demo data for first runs (issue "Portal foundation" table): organizations, members, roles and
 * sign-in accounts, all with the password `portal-demo`. Runs only on an empty database.
 * Each capability adds its demo records through `demoSeeders`.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../db/database';
import type { OrganizationRole, Role, Scope } from '../../common/enums';
import { hashPassword } from '../auth/idp/passwords';
import type { DemoContext } from './context';
import { DEMO_PASSWORD } from './published';
import { seedCertificates } from './certificates';
import { seedLicenses } from './licenses';
import { seedResources } from './resources';

interface DemoOrganization {
  key: string;
  name: string;
  role: OrganizationRole;
  parent?: string;
  website?: string;
  domains?: string[];
  banned?: string;
}

export const DEMO_ORGANIZATIONS: DemoOrganization[] = [
  { key: 'operator', name: 'Operator', role: 'OPERATOR', website: 'https://operator.example', domains: [] },
  { key: 'northwind', name: 'Northwind Networks', role: 'PARTNER', parent: 'operator', website: 'https://northwind.example' },
  { key: 'contoso', name: 'Contoso', role: 'CUSTOMER', parent: 'northwind', website: 'https://contoso.example', domains: ['contoso.example'] },
  { key: 'fabrikam', name: 'Fabrikam', role: 'CUSTOMER', parent: 'operator', website: 'https://fabrikam.example', banned: 'Contract ended.' },
];

interface DemoAccount {
  email: string;
  name: string;
  organization?: string;
  role?: Role;
  scope?: Scope;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'supervisor@operator.example', name: 'Sofia Supervisor', organization: 'operator', role: 'SUPERVISOR', scope: 'COOPERATION' },
  { email: 'admin@operator.example', name: 'Adam Admin', organization: 'operator', role: 'ADMINISTRATOR', scope: 'COOPERATION' },
  { email: 'approver@operator.example', name: 'April Approver', organization: 'operator', role: 'APPROVER', scope: 'COOPERATION' },
  { email: 'devops@operator.example', name: 'Devon Devops', organization: 'operator', role: 'DEVOPS', scope: 'COOPERATION' },
  // Vendor support access (issue 33): a DevOps engineer whose role reaches only the operator, who asks customers for access.
  { email: 'support@operator.example', name: 'Sam Support', organization: 'operator', role: 'DEVOPS', scope: 'ORGANIZATION' },
  { email: 'admin@northwind.example', name: 'Nora Northwind', organization: 'northwind', role: 'ADMINISTRATOR', scope: 'COOPERATION' },
  { email: 'issuer@northwind.example', name: 'Ivan Issuer', organization: 'northwind', role: 'ISSUER', scope: 'ORGANIZATION' },
  { email: 'issuer@contoso.example', name: 'Isla Contoso', organization: 'contoso', role: 'ISSUER', scope: 'ORGANIZATION' },
  { email: 'member@contoso.example', name: 'Max Member', organization: 'contoso', role: 'MEMBER', scope: 'ORGANIZATION' },
  { email: 'member@fabrikam.example', name: 'Fay Fabrikam', organization: 'fabrikam', role: 'MEMBER', scope: 'ORGANIZATION' },
  { email: 'newcomer@contoso.example', name: 'Nell Newcomer' },
  { email: 'stranger@unknown.example', name: 'Sam Stranger' },
  // An address no organization trusts, for inviting (issue 34): no organization until an administrator invites it.
  { email: 'outsider@elsewhere.example', name: 'Olga Outsider' },
];

/** What the foundation seed made, for the seeders of later capabilities. */
export type { DemoContext } from './context';

/** Each capability's demo records, seeded after the organizations and members they refer to. */
const demoSeeders: Array<(tx: Tx, context: DemoContext) => Promise<void>> = [seedCertificates, seedResources, seedLicenses];

export async function seedDemoData(db: Db, now: Date): Promise<boolean> {
  const existing = await db.selectFrom('organizations').select('organization_id').limit(1).executeTakeFirst();
  if (existing) return false;
  // Hash outside the transaction: scrypt is slow on purpose.
  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction().execute(async (tx) => {
    const context: DemoContext = { now, organizations: {}, members: {} };
    const created = now.toISOString();
    for (const org of DEMO_ORGANIZATIONS) {
      const id = randomUUID();
      context.organizations[org.key] = id;
      await tx
        .insertInto('organizations')
        .values({
          organization_id: id,
          organization_name: org.name,
          organization_role: org.role,
          parent_organization_id: org.parent ? context.organizations[org.parent] : null,
          website: org.website ?? null,
          logo_url: null,
          address: null,
          ban_note: org.banned ?? null,
          date_organization_banned: org.banned ? created : null,
          date_created: created,
        })
        .execute();
      for (const domain of org.domains ?? []) {
        await tx.insertInto('organization_domains').values({ organization_id: id, domain }).execute();
      }
    }
    for (const account of DEMO_ACCOUNTS) {
      const [given, family] = account.name.split(' ');
      await tx
        .insertInto('accounts')
        .values({
          account_id: randomUUID(), email: account.email, password_hash: hash, name: account.name,
          given_name: given, family_name: family ?? null, email_verified: 1, date_created: created,
        })
        .execute();
      if (!account.organization || !account.role || !account.scope) continue;
      const memberId = randomUUID();
      const organizationId = context.organizations[account.organization];
      context.members[account.email] = memberId;
      await tx
        .insertInto('members')
        .values({
          member_id: memberId, organization_id: organizationId, member_email: account.email, name: account.name,
          given_name: given, family_name: family ?? null, job_role: null, mobile_phone: null, office_phone: null,
          address: null, ban_note: null, date_member_banned: null, date_created: created,
        })
        .execute();
      await tx
        .insertInto('role_assignments')
        .values({ member_id: memberId, organization_id: organizationId, role: account.role, scope: account.scope })
        .execute();
    }
    for (const seed of demoSeeders) await seed(tx, context);
    // The bell of a first run shows what the last week would have told (the time scan's first interval
    // starts a week back: notifications/scan.ts), not nothing.
    await tx.insertInto('scan_state').values({ id: 1, date_scanned: new Date(now.getTime() - 7 * 86_400_000).toISOString() }).execute();
  });
  return true;
}
