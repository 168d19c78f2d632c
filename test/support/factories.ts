/**
 * Factories for the API tests: each call makes exactly the rows a test asks for, with names no
 * other test uses, through the repositories (as server/demo/seed.ts makes the demo), and answers
 * their ids. A test that builds its own objects this way passes whatever ran before it, in any
 * order; the demo seed stays for the demo and the end-to-end run.
 *
 *   const make = factories(t);
 *   const customer = await make.organization({ parent: partner });
 *   const issuer = await make.member(customer, { role: 'ISSUER' });
 *   const dn = (await make.certificate(customer, 'approved')).dn;
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../server/db/database';
import type { LicenseScope, OrganizationRole, ResourceAccess, ResourceType, Role, Scope } from '../../common/enums';
import { startOfUtcDay } from '../../common/status';
import { licenseValidUntil } from '../../common/zones';
import { audit, type AuditReason } from '../../server/db/audit';
import { hashPassword } from '../../server/auth/idp/passwords';
import { insertOrganization } from '../../server/modules/organizations/repository';
import { insertAssignment } from '../../server/modules/members/repository';
import { insertCertificate } from '../../server/modules/certificates/repository';
import { parseCertificatePem } from '../../server/modules/certificates/x509';
import { insertLicense, updateLicense } from '../../server/modules/licenses/repository';
import { insertResource, nextOrdinal, setGrant } from '../../server/modules/resources/repository';
import { makeCertificate } from '../../scripts/make-certificate';

const DAY = 86_400_000;

let serial = 0;
/** A short tag no other call (of any test file in this process) gets: a counter and random hex. */
export function uniqueTag(): string {
  serial += 1;
  return `${serial}-${randomBytes(3).toString('hex')}`;
}

export interface Org {
  id: string;
  name: string;
  role: OrganizationRole;
  parent: string | null;
  /** A domain of its own; trusted (admits newcomers) only when made with `trusted: true`. */
  domain: string;
}

export interface Person {
  id: string;
  email: string;
  name: string;
  organization: string;
}

export interface Certificate {
  dn: string;
  organization: string;
  description: string;
  pem: string;
}

interface License {
  id: string;
  name: string;
  organization: string;
  /** The version the next change must name. */
  version: number;
  /** The successor a renewal made ('extended', 'extension-requested'). */
  successor?: string;
}

interface Resource {
  id: string;
  name: string;
  ordinal: number;
  path_pattern: string;
  location: string;
  access: ResourceAccess;
}

/**
 * Certificate states: requested (not approved, valid window), approved (valid now), future
 * (approved, not yet valid), expired (approved, ended yesterday), acknowledged (expired, expiry
 * acknowledged), revoked (approved, then revoked).
 */
type CertificateState = 'requested' | 'approved' | 'future' | 'expired' | 'acknowledged' | 'revoked';

/**
 * License states: requested, approved (valid now), future (approved, starts later), rejected,
 * renewable (approved, 3 days left), expired (approved, ended 10 days ago), acknowledged (expired,
 * 'No renew'), extension-requested (renewable, a renewal waits for approval), extended (expired,
 * the renewal approved).
 */
type LicenseState =
  | 'requested' | 'approved' | 'future' | 'rejected' | 'renewable' | 'expired' | 'acknowledged' | 'extension-requested' | 'extended';

type OrgRef = Org | string;
const idOf = (o: OrgRef) => (typeof o === 'string' ? o : o.id);
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

interface FactoryHost {
  db: Db;
  clock?: { now(): Date };
}

export function factories(host: FactoryHost) {
  const now = () => host.clock?.now() ?? new Date();
  const iso = (ms: number) => new Date(ms).toISOString();
  /** Organizations made here, so members get an email in their organization's domain. */
  const domains = new Map<string, string>();

  async function organization(options: {
    role?: OrganizationRole;
    /** The parent: none for an OPERATOR. */
    parent?: OrgRef | null;
    name?: string;
    /** Trust `domain`, so newcomers of it are admitted as MEMBER. */
    trusted?: boolean;
    /** More trusted domains. */
    domains?: string[];
    banned?: boolean | string;
    website?: string | null;
    address?: string | null;
  } = {}): Promise<Org> {
    const role = options.role ?? 'CUSTOMER';
    const tag = uniqueTag();
    const name = options.name ?? `${role[0]}${role.slice(1).toLowerCase()} ${tag}`;
    const domain = `${slug(role)}-${tag}.example`;
    const id = randomUUID();
    const parent = options.parent ? idOf(options.parent) : null;
    const banned = options.banned ? (typeof options.banned === 'string' ? options.banned : 'Banned by a factory.') : null;
    const created = now().toISOString();
    const trusted = [...(options.trusted ? [domain] : []), ...(options.domains ?? [])];
    await insertOrganization(host.db, {
      organization_id: id, organization_name: name, organization_role: role, parent_organization_id: parent,
      website: options.website ?? null, logo_url: null, address: options.address ?? null,
      ban_note: banned, date_organization_banned: banned ? created : null, date_created: created,
    }, trusted);
    domains.set(id, domain);
    return { id, name, role, parent, domain };
  }

  /**
   * A member of the organization holding `role` (MEMBER unless told) with `scope` (ORGANIZATION
   * unless told) there, and any `more` assignments; banned when asked. No sign-in account: the
   * tests sign tokens for the email (TestApp.as); `account` below makes one for the provider.
   */
  async function member(organization: OrgRef, options: {
    role?: Role | null;
    scope?: Scope;
    more?: Array<{ organization: OrgRef; role: Role; scope: Scope }>;
    email?: string;
    name?: string;
    banned?: boolean;
  } = {}): Promise<Person> {
    const organizationId = idOf(organization);
    const tag = uniqueTag();
    const role = options.role === undefined ? 'MEMBER' : options.role;
    const domain = (typeof organization === 'string' ? domains.get(organizationId) : organization.domain) ?? 'factory.example';
    const email = (options.email ?? `${(role ?? 'person').toLowerCase()}-${tag}@${domain}`).toLowerCase();
    const name = options.name ?? `${role ? role[0] + role.slice(1).toLowerCase() : 'Person'} ${tag}`;
    const [given, ...family] = name.split(' ');
    const id = randomUUID();
    const created = now().toISOString();
    await host.db.insertInto('members').values({
      member_id: id, organization_id: organizationId, member_email: email, name, given_name: given, family_name: family.join(' ') || null,
      job_role: null, mobile_phone: null, office_phone: null, address: null,
      ban_note: options.banned ? 'Banned by a factory.' : null, date_member_banned: options.banned ? created : null, date_created: created,
    }).execute();
    if (role) await insertAssignment(host.db, { member_id: id, organization_id: organizationId, role, scope: options.scope ?? 'ORGANIZATION' });
    for (const extra of options.more ?? []) {
      await insertAssignment(host.db, { member_id: id, organization_id: idOf(extra.organization), role: extra.role, scope: extra.scope });
    }
    return { id, email, name, organization: organizationId };
  }

  /** A sign-in account of the built-in provider (scrypt: slow on purpose, so only where a test signs in with a password). */
  async function account(options: { email?: string; password: string; name?: string }) {
    const email = (options.email ?? `account-${uniqueTag()}@factory.example`).toLowerCase();
    const name = options.name ?? `Account ${uniqueTag()}`;
    const [given, ...family] = name.split(' ');
    const id = randomUUID();
    await host.db.insertInto('accounts').values({
      account_id: id, email, password_hash: await hashPassword(options.password), name, given_name: given,
      family_name: family.join(' ') || null, email_verified: 1, date_created: now().toISOString(),
    }).execute();
    return { id, email, name };
  }

  /** A real certificate (makeCertificate) of the organization in the state asked for. */
  async function certificate(organization: OrgRef, state: CertificateState = 'approved', options: {
    /** Common name; unique unless given. */
    cn?: string;
    /** The subject in full (X.500 string, most significant first); replaces `cn`. */
    subject?: string;
    /** Validity window in days from now; the state's window unless given. */
    from?: number;
    to?: number;
    owner?: string | null;
    approver?: string | null;
    description?: string;
  } = {}): Promise<Certificate> {
    const at = now().getTime();
    const windows: Record<CertificateState, [number, number]> = {
      requested: [-1, 30], approved: [-10, 300], future: [10, 300], expired: [-60, -1], acknowledged: [-60, -1], revoked: [-10, 300],
    };
    const [from, to] = [options.from ?? windows[state][0], options.to ?? windows[state][1]];
    const subject = options.subject ?? `O=Factory, CN=${options.cn ?? `${state}-${uniqueTag()}.factory.example`}`;
    const { pem } = await makeCertificate({ subject, notBefore: new Date(at + from * DAY), notAfter: new Date(at + to * DAY) });
    const parsed = parseCertificatePem(pem);
    const approved = state !== 'requested';
    const description = options.description ?? `${state} certificate`;
    await insertCertificate(host.db, {
      ...parsed,
      dn_search: parsed.distinguished_name.toLowerCase(),
      organization_id: idOf(organization),
      description,
      owner_member_id: options.owner ?? null,
      approver_member_id: approved ? options.approver ?? null : null,
      date_approved: approved ? iso(Math.min(at, at + from * DAY) - DAY) : null,
      date_revoked: state === 'revoked' ? iso(at - DAY) : null,
      date_expiry_acknowledged: state === 'acknowledged' ? iso(at + to * DAY + 1000) : null,
      date_created: iso(Math.min(at, at + from * DAY) - 2 * DAY),
    });
    return { dn: parsed.distinguished_name, organization: idOf(organization), description, pem: parsed.certificate_pem };
  }

  /** A license of the organization in the state asked for, as the service would have left it. */
  async function license(organization: OrgRef, state: LicenseState = 'approved', options: {
    name?: string;
    scope?: LicenseScope;
    /** Start in days from today (UTC) and length in days; the state's window unless given. */
    from?: number;
    days?: number;
    note?: string | null;
    approver?: string | null;
  } = {}): Promise<License> {
    const today = startOfUtcDay(now()).getTime();
    const at = now().getTime();
    const windows: Record<LicenseState, [number, number]> = {
      requested: [0, 30], approved: [-10, 365], future: [14, 30], rejected: [0, 30], renewable: [-27, 30], expired: [-40, 30],
      acknowledged: [-40, 30], 'extension-requested': [-27, 30], extended: [-40, 30],
    };
    const [fromDays, days] = [options.from ?? windows[state][0], options.days ?? windows[state][1]];
    const from = iso(today + fromDays * DAY);
    const name = options.name ?? `License ${uniqueTag()}`;
    const organizationId = idOf(organization);
    const approved = !['requested', 'rejected'].includes(state);
    const decided = iso(Math.min(at, today + fromDays * DAY) - DAY);
    const acknowledged = state === 'acknowledged';
    const renewed = state === 'extension-requested' || state === 'extended';
    const id = randomUUID();
    // The version counts the changes: the request, then each decision.
    const version = 1 + (state === 'requested' ? 0 : 1) + (acknowledged || renewed ? 1 : 0);
    await insertLicense(host.db, {
      license_id: id, license_name: name, name_search: name.toLowerCase(), license_scope: options.scope ?? 'LAB', organization_id: organizationId,
      date_valid_from: from, days_valid: days, date_valid_until: licenseValidUntil(from, days), note: options.note ?? null,
      date_approved: approved ? decided : null, date_rejected: state === 'rejected' ? decided : null,
      date_expiry_acknowledged: acknowledged ? iso(at - DAY) : null, approver_member_id: approved ? options.approver ?? null : null,
      extended_by_license_id: null, version, date_created: iso(Math.min(at, today + fromDays * DAY) - 2 * DAY),
    });
    if (!renewed) return { id, name, organization: organizationId, version };
    // The successor a renewal makes (licenses/service.ts renew): same scope and length, from the day of the renewal.
    const successor = await license(organization, state === 'extended' ? 'approved' : 'requested', {
      name: `${name} (renewal 1)`, scope: options.scope, from: state === 'extended' ? -12 : 0, days, note: `Renewal of ${name}.`,
    });
    await updateLicense(host.db, id, { extended_by_license_id: successor.id });
    return { id, name, organization: organizationId, version, successor: successor.id };
  }

  /** A resource (RESTRICTED unless told) at the next free ordinal, granted to `grants`. */
  async function resource(options: {
    access?: ResourceAccess;
    type?: ResourceType;
    name?: string;
    ordinal?: number;
    path_pattern?: string;
    location?: string;
    description?: string | null;
    grants?: OrgRef[];
  } = {}): Promise<Resource> {
    const tag = uniqueTag();
    const id = randomUUID();
    const name = options.name ?? `Resource ${tag}`;
    const access = options.access ?? 'RESTRICTED';
    const row = {
      resource_id: id, ordinal: options.ordinal ?? (await nextOrdinal(host.db)), resource_name: name, resource_type: options.type ?? 'STATIC_CONTENT',
      resource_access: access, path_pattern: options.path_pattern ?? `/factory/${tag}/**`, location: options.location ?? `/srv/factory/${tag}`,
      description: options.description ?? null,
    };
    await insertResource(host.db, row);
    for (const organization of options.grants ?? []) await setGrant(host.db, id, idOf(organization), true);
    return { id, name, ordinal: row.ordinal, path_pattern: row.path_pattern, location: row.location, access };
  }

  /**
   * A journal record of the organization, through the one audit path; answers its message. A reason
   * that is also an event (a ban, a role …) names a made-up subject: the journal is the subject here.
   */
  async function journal(organization: OrgRef | null, options: { reason?: AuditReason; message?: string; by?: string | null; at?: Date } = {}) {
    const message = options.message ?? `Factory record ${uniqueTag()}.`;
    await audit(host.db, {
      reason: options.reason ?? 'ORGANIZATION_SAVED', message, organization_id: organization ? idOf(organization) : null,
      member_email: options.by ?? null, now: options.at ?? now(), subject: { type: 'organization', id: organization ? idOf(organization) : 'none' },
    });
    return message;
  }

  /**
   * A small tenancy like the demo's, all new: an operator with its staff, a partner below it with
   * an administrator (COOPERATION) and an issuer (ORGANIZATION), the partner's customer (trusting
   * its own domain) with an issuer and a member, and a banned customer of the operator with a
   * member. For the tests about who may do what where; a test that changes one of them still
   * makes its own.
   */
  async function cooperation() {
    const operator = await organization({ role: 'OPERATOR', name: `Operator ${uniqueTag()}` });
    const partner = await organization({ role: 'PARTNER', parent: operator, name: `Partner ${uniqueTag()}` });
    const customer = await organization({ parent: partner, name: `Customer ${uniqueTag()}`, trusted: true });
    const banned = await organization({ parent: operator, name: `Banned ${uniqueTag()}`, banned: 'Contract ended.' });
    const staff = (role: Role) => member(operator, { role, scope: 'COOPERATION' });
    return {
      operator, partner, customer, banned,
      supervisor: await staff('SUPERVISOR'),
      operatorAdmin: await staff('ADMINISTRATOR'),
      approver: await staff('APPROVER'),
      devops: await staff('DEVOPS'),
      partnerAdmin: await member(partner, { role: 'ADMINISTRATOR', scope: 'COOPERATION' }),
      partnerIssuer: await member(partner, { role: 'ISSUER' }),
      issuer: await member(customer, { role: 'ISSUER' }),
      member: await member(customer, { role: 'MEMBER' }),
      bannedMember: await member(banned, { role: 'MEMBER' }),
    };
  }

  return { organization, member, account, certificate, license, resource, journal, cooperation };
}

type Factories = ReturnType<typeof factories>;
export type Cooperation = Awaited<ReturnType<Factories['cooperation']>>;
