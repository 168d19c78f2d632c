/**
 * The authorization matrix (issue 9, "Authorization matrix with valid requests"). Every route of the
 * OpenAPI document is called by every person of the factories' cooperation (test/support/factories.ts:
 * operator staff, a partner's administrator and issuer, its customer's issuer and member, a banned
 * customer's member) against the operator, the partner, its customer and the banned customer of the
 * operator, each time with a request that
 * WOULD SUCCEED for an allowed caller: fresh objects in the right state in the target organization,
 * made for that one call, a valid body and a valid query. A 400 therefore never stands in for a
 * refusal. The expected answer comes from common/policy.ts alone, with targets built from the
 * parent chain as the server builds them:
 *   - not `can(actor, 'read', target)` → 404 (ids of other tenants reveal nothing);
 *   - readable, but not `can(actor, action, target)` → 403; allowed → the route's 2xx;
 *   - operator-only routes (resources, API token, master secret, gateway exports, portal state)
 *     target the operator organization and refuse with 403;
 *   - role assign/unassign follow `canGrant`; the banned organization's member is refused
 *     everywhere (sign-in refused, 403).
 * Organization API keys (issue 32) are principals too: keys of the customer, the partner, the operator and the
 * banned customer, with several roles and read-only, each made by a person who may grant its roles. A key acts
 * with its own roles (the policy reads `api_key`), so the same expectation holds; a key of the banned
 * organization is refused at sign-in like its members.
 * A refused write leaves the journal and its object unchanged. And a foreign target (one the caller
 * cannot read) is refused the same way whatever the input: a valid body, none, an empty object,
 * broken JSON, or unknown fields and wrong types in body and query (never a 400 first).
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import {
  ACTIONS, can, canGlobally, canGrant, canInvite, canSupport, SCREENS, type Action, type Actor, type SupportAction, type TargetOrganization,
} from '../../common/policy';
import type { OrganizationRole, Role, Scope } from '../../common/enums';
import { startOfUtcDay } from '../../common/status';
import { licenseValidUntil } from '../../common/zones';
import type { Database } from '../../server/db/schema';
import type { Db } from '../../server/db/database';
import { assignmentOf, loadAssignments } from '../../server/auth/actor';
import { parseCertificatePem } from '../../server/modules/certificates/x509';
import { provideMasterSecret, type MasterSecret } from '../../server/modules/admin/master-secret';
import { makeCertificate } from '../../scripts/make-certificate';
import { hashKeySecret, newKeySecret } from '../../server/auth/api-key-secret';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { factories, type Cooperation } from '../support/factories';

const dialects = await testDialects();
const DAY = 86_400_000;
const SECRET = 'the master secret of the authorization matrix';

const ORGANIZATIONS = ['operator', 'partner', 'customer', 'banned'] as const;
type OrganizationKey = (typeof ORGANIZATIONS)[number];

/** The people of the cooperation, by their key there. */
const PEOPLE = ['supervisor', 'operatorAdmin', 'approver', 'devops', 'partnerAdmin', 'partnerIssuer', 'issuer', 'member', 'bannedMember'] as const;

interface Organization {
  key: OrganizationKey;
  id: string;
  role: OrganizationRole;
  target: TargetOrganization;
  /** As made, to put back after a ban or unban. */
  banned: { date_organization_banned: string | null; ban_note: string | null };
}

interface Person {
  email: string;
  organization_id: string;
  /** Member or organization banned: sign-in itself is refused. */
  banned: boolean;
  actor: Actor;
  /** An API key: the organization of the person who made it (banned, it stops the key as it stops them). */
  keyCreatorOrganizationId?: string;
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** The object the call acts on, read before and after a refusal: it must not change. */
  state?: () => Promise<unknown>;
}

type Variant = readonly [Role, Scope] | undefined;

interface Case {
  person: Person;
  org: Organization;
  variant: Variant;
  call: Call;
}

interface Route {
  /**
   * public: anyone; member: any signed-in person; org: the path (or query) names the target
   * organization; operator: operator-only, the target is the operator organization.
   */
  kind: 'public' | 'member' | 'org' | 'operator';
  /** The 2xx of an allowed call. */
  ok: number;
  /** org routes: the action of SPEC.md §6 that common/policy.ts decides. */
  action?: Action;
  /** operator routes: whether policy allows the actor (on `org` when the route also names one). */
  allowed?: (actor: Actor, org: Organization) => boolean;
  /** Organizations to run against: all four for org routes, the operator otherwise (unless said). */
  targets?: readonly OrganizationKey[];
  variants?: (org: Organization) => Variant[];
  /** Replaces the policy's 2xx for an allowed caller: a genuine rule of the route (documented where used). */
  rule?: (c: Case) => number | undefined;
  /** Replaces the whole expectation for a signed-in caller (routes whose target is not in the path). */
  expect?: (c: Case) => number;
  /**
   * The target is named in the body, so a foreign one can only be refused once the body is read:
   * with a 400 of exactly this message, the one a missing target gets.
   */
  targetInBody?: string;
  /**
   * Bulk actions: the call answers 200 to every signed-in caller and each item as its single call
   * would (the status returned here); the item's refusal leaves it and the journal unchanged, and a
   * foreign target sent malformed input gets a 4xx (the target is in the body).
   */
  perItem?: (c: Case) => number;
  make(c: Omit<Case, 'call'>, fx: Fixtures): Promise<Call>;
  before?(c: Case): Promise<void>;
  after?(c: Case): Promise<void>;
  /** How many journal records an allowed write makes: one, unless said (a bulk upload journals each certificate). */
  journaled?: number;
  /** Checks its own tokens (the gateway exports): people's and gateway tokens, not API keys, which get 401. */
  noKeys?: boolean;
  /** Looks at an allowed answer (lists hold only rows of readable organizations). */
  check?(res: LightMyRequestResponse, c: Case, reads: (organizationId: string) => Promise<boolean>): Promise<string | null>;
}

let seq = 0;
const next = () => ++seq;
const iso = (ms: number) => new Date(ms).toISOString();

/** Fresh rows for one route's calls, queued while the calls are built and inserted in one transaction. */
class Fixtures {
  private rows = new Map<keyof Database, unknown[]>();
  constructor(private readonly db: Db, private readonly now: () => Date) {}

  private add<T extends keyof Database>(table: T, row: Insertable<Database[T]>) {
    if (!this.rows.has(table)) this.rows.set(table, []);
    this.rows.get(table)!.push(row);
  }

  member(organizationId: string, options: { banned?: boolean; role?: readonly [Role, Scope] } = {}): string {
    const id = randomUUID();
    const n = next();
    const now = this.now().toISOString();
    this.add('members', {
      member_id: id, organization_id: organizationId, member_email: `matrix-${n}@matrix.example`, name: `Matrix Member ${n}`,
      given_name: 'Matrix', family_name: `Member ${n}`, job_role: null, mobile_phone: null, office_phone: null, address: null,
      ban_note: options.banned ? 'matrix' : null, date_member_banned: options.banned ? now : null, date_created: now,
    });
    if (options.role) this.add('role_assignments', { member_id: id, organization_id: organizationId, role: options.role[0], scope: options.role[1] });
    return id;
  }

  /** new: not approved; approved: valid for 300 days; expired: approved, not after yesterday; revoked. */
  async certificate(organizationId: string, state: 'new' | 'approved' | 'expired' | 'revoked'): Promise<string> {
    const now = this.now().getTime();
    const n = next();
    const { pem } = await makeCertificate({
      subject: `O=Matrix, CN=matrix-${n}.example`,
      notBefore: new Date(now - 30 * DAY),
      notAfter: new Date(now + (state === 'expired' ? -1 : 300) * DAY),
    });
    const parsed = parseCertificatePem(pem);
    this.add('certificates', {
      ...parsed,
      dn_search: parsed.distinguished_name.toLowerCase(),
      organization_id: organizationId,
      description: `matrix certificate ${n}`,
      owner_member_id: null,
      approver_member_id: null,
      date_approved: state === 'new' ? null : iso(now - 20 * DAY),
      date_revoked: state === 'revoked' ? iso(now - DAY) : null,
      date_expiry_acknowledged: null,
      date_created: iso(now - 30 * DAY),
    });
    return parsed.distinguished_name;
  }

  /** new: waits for approval; approved: valid a year; renewable: approved, 2 days left; expired: approved, ran out 10 days ago. */
  license(organizationId: string, state: 'new' | 'approved' | 'renewable' | 'expired'): string {
    const now = this.now();
    const id = randomUUID();
    const name = `Matrix license ${next()}`;
    const [fromDays, days] = { new: [0, 30], approved: [-10, 365], renewable: [-28, 30], expired: [-40, 30] }[state];
    const from = iso(startOfUtcDay(now).getTime() + fromDays * DAY);
    this.add('licenses', {
      license_id: id, license_name: name, name_search: name.toLowerCase(), license_scope: 'EVALUATION', organization_id: organizationId,
      date_valid_from: from, days_valid: days, date_valid_until: licenseValidUntil(from, days), note: null,
      date_approved: state === 'new' ? null : iso(now.getTime() - 41 * DAY), date_rejected: null, date_expiry_acknowledged: null,
      approver_member_id: null, extended_by_license_id: null, version: 1, date_created: iso(now.getTime() - 41 * DAY),
    });
    return id;
  }

  /** An API key of the organization (its secret is never used: the key is only listed or revoked). */
  apiKey(organizationId: string): string {
    const id = randomUUID();
    const now = this.now();
    this.add('api_keys', {
      api_key_id: id, organization_id: organizationId, name: `matrix-key-${next()}`, secret_hash: hashKeySecret(newKeySecret()),
      roles: JSON.stringify([{ role: 'MEMBER', scope: 'ORGANIZATION' }]), read_only: 0, created_by: randomUUID(), created_by_name: 'Matrix',
      created_by_email: 'matrix@matrix.example', date_created: now.toISOString(), date_expires: iso(now.getTime() + 30 * DAY),
      date_last_used: null, last_used_from: null, date_revoked: null,
    });
    return id;
  }

  /** A RESTRICTED resource, granted to `grantedTo` when given. */
  resource(grantedTo?: string): string {
    const id = randomUUID();
    const n = next();
    this.add('resources', {
      resource_id: id, ordinal: 100_000 + n, resource_name: `Matrix resource ${n}`, resource_type: 'STATIC_CONTENT',
      resource_access: 'RESTRICTED', path_pattern: `/matrix/${n}/**`, location: `/srv/matrix/${n}`, description: null,
    });
    if (grantedTo) this.add('resource_grants', { resource_id: id, organization_id: grantedTo });
    return id;
  }

  /** A pending invitation of a fresh address, valid 7 days. */
  invitation(organizationId: string, role: readonly [Role, Scope]): string {
    const id = randomUUID();
    const now = this.now().getTime();
    this.add('invitations', {
      invitation_id: id, organization_id: organizationId, email: `invited-${next()}@elsewhere.example`, role: role[0], scope: role[1], invited_by: null,
      date_created: iso(now), date_sent: iso(now), date_expires: iso(now + 7 * DAY), date_accepted: null, accepted_member_id: null, date_revoked: null, revoked_by: null,
    });
    return id;
  }

  async flush(): Promise<void> {
    const order: Array<keyof Database> = ['members', 'role_assignments', 'certificates', 'licenses', 'resources', 'resource_grants', 'invitations', 'api_keys'];
    await this.db.transaction().execute(async (tx) => {
      for (const table of order) {
        const rows = this.rows.get(table) ?? [];
        for (let i = 0; i < rows.length; i += 100) await tx.insertInto(table).values(rows.slice(i, i + 100) as never).execute();
      }
    });
    this.rows.clear();
  }
}

const json = { 'content-type': 'application/json' };
const BAD_QUERY = `version=one&role=NOBODY&scope=NOWHERE&organization=&today=yesterday&note=${'x'.repeat(1001)}&limit=-1`;
const BAD_BODY = {
  unknown_field: true, version: 'one', license_name: 7, days_valid: -1, description: 7, certificate: 7, organization_name: 7,
  resource_name: 7, upn: ' ', groups: ['root'], expires_in: -1, job_role: 7, address: 7, name: 7,
};
const pathOf = (url: string) => url.split('?')[0];

/** The inputs a foreign target must be refused with, whatever they are. */
const MALFORMED: Array<{ name: string; call(c: Call): Call }> = [
  { name: 'no body and no query', call: (c) => ({ method: c.method, url: pathOf(c.url) }) },
  { name: 'an empty object', call: (c) => ({ method: c.method, url: c.url, payload: {}, headers: json }) },
  { name: 'broken JSON', call: (c) => ({ method: c.method, url: c.url, payload: '{"broken', headers: json }) },
  { name: 'unknown fields and wrong types', call: (c) => ({ method: c.method, url: `${pathOf(c.url)}?${BAD_QUERY}`, payload: BAD_BODY, headers: json }) },
];

/** The API keys among the principals: organization, creator (who may grant the roles there), roles, read-only. */
const KEYS: Array<{ org: OrganizationKey; by: (typeof PEOPLE)[number]; roles: Array<readonly [Role, Scope]>; readOnly?: boolean }> = [
  { org: 'customer', by: 'partnerAdmin', roles: [['ISSUER', 'ORGANIZATION']] },
  { org: 'customer', by: 'partnerAdmin', roles: [['ADMINISTRATOR', 'ORGANIZATION'], ['ISSUER', 'ORGANIZATION']], readOnly: true },
  { org: 'partner', by: 'partnerAdmin', roles: [['ADMINISTRATOR', 'COOPERATION']] },
  { org: 'partner', by: 'partnerAdmin', roles: [['ISSUER', 'COOPERATION']], readOnly: true },
  { org: 'operator', by: 'supervisor', roles: [['APPROVER', 'COOPERATION']] },
  { org: 'operator', by: 'supervisor', roles: [['SUPERVISOR', 'COOPERATION']] },
  { org: 'operator', by: 'supervisor', roles: [['SUPERVISOR', 'COOPERATION'], ['DEVOPS', 'ORGANIZATION']], readOnly: true },
  { org: 'operator', by: 'supervisor', roles: [['DEVOPS', 'ORGANIZATION']] },
  { org: 'banned', by: 'supervisor', roles: [['ADMINISTRATOR', 'ORGANIZATION']] },
];

describe.each(dialects)('authorization matrix on %s', (dialect) => {
  // The keys' limit is not what this test is about: every call of a run falls in one minute of the test clock.
  const t = useTestApp(dialect, { demo: false, env: { API_KEY_RATE_LIMIT: '1000000' } });
  const make = factories(t);
  let w: Cooperation;
  const orgs = {} as Record<OrganizationKey, Organization>;
  const people: Person[] = [];
  const headers = new Map<string, Record<string, string>>();
  /** Objects that only need to exist, per organization: for the reading routes. */
  const readers = {} as Record<OrganizationKey, { member: string; certificate: string; license: string }>;
  let resource = '';
  let operator: TargetOrganization;
  /** The person whose support access to the customer runs (it has an open request there), and a requester of fixtures. */
  let supportRunning = '';
  let supportRequester = '';

  /** The target as the server builds it (access/tree.ts loadTarget): the parent chain, nearest first. */
  async function parentChains(): Promise<(id: string) => TargetOrganization> {
    const rows = await t.db.selectFrom('organizations').select(['organization_id', 'parent_organization_id']).execute();
    const parentOf = new Map(rows.map((r) => [r.organization_id, r.parent_organization_id]));
    return (id) => {
      const ancestors: string[] = [];
      for (let p = parentOf.get(id); p && ancestors.length < 64; p = parentOf.get(p)) ancestors.push(p);
      return { organization_id: id, ancestor_ids: ancestors };
    };
  }

  /** The actor exactly as server/auth/actor.ts builds it: the member by email and their role assignments. */
  async function person(email: string): Promise<Person> {
    const m = await t.db
      .selectFrom('members as m')
      .innerJoin('organizations as o', 'o.organization_id', 'm.organization_id')
      .select(['m.member_id', 'm.organization_id', 'o.organization_role', 'm.date_member_banned', 'o.date_organization_banned'])
      .where('m.member_email', '=', email)
      .executeTakeFirstOrThrow();
    const roles = (await loadAssignments(t.db, m.member_id, t.clock.now())).map(assignmentOf);
    return {
      email,
      organization_id: m.organization_id,
      banned: !!(m.date_member_banned || m.date_organization_banned),
      actor: { member_id: m.member_id, organization_id: m.organization_id, organization_role: m.organization_role, roles },
    };
  }

  beforeAll(async () => {
    w = await make.cooperation();
    const chain = await parentChains();
    const rows = await t.db.selectFrom('organizations').selectAll().execute();
    for (const key of ORGANIZATIONS) {
      const row = rows.find((r) => r.organization_id === w[key].id)!;
      orgs[key] = {
        key, id: row.organization_id, role: row.organization_role, target: chain(row.organization_id),
        banned: { date_organization_banned: row.date_organization_banned, ban_note: row.ban_note },
      };
    }
    operator = orgs.operator.target;
    expect(orgs.banned.banned.date_organization_banned).not.toBeNull();
    // Time-boxed roles (issue 33): a partner administrator whose role still runs counts it (exactly its allows), one
    // whose role ended at this very instant, not yet removed by the time scan, counts nothing (0 allows).
    const running = await make.member(w.partner, { role: 'ADMINISTRATOR', scope: 'COOPERATION' });
    const ended = await make.member(w.partner, { role: 'ADMINISTRATOR', scope: 'COOPERATION' });
    const until = (id: string, at: Date) => t.db.updateTable('role_assignments').set({ date_until: at.toISOString() }).where('member_id', '=', id).execute();
    await until(running.id, new Date(t.clock.now().getTime() + 30 * DAY));
    await until(ended.id, t.clock.now());
    // Vendor support access (issue 33 item 2): a DevOps engineer whose own role reaches only the operator, with a MEMBER
    // access to the customer that runs (exactly MEMBER's allows there), and one whose access ended at this instant (0).
    const supportActive = await make.member(w.operator, { role: 'DEVOPS', scope: 'ORGANIZATION' });
    const supportEnded = await make.member(w.operator, { role: 'DEVOPS', scope: 'ORGANIZATION' });
    for (const [person, until] of [[supportActive, iso(t.clock.now().getTime() + 3_600_000)], [supportEnded, t.clock.now().toISOString()]] as const) {
      await t.db.insertInto('support_requests').values({
        organization_id: w.customer.id, member_id: person.id, requester_organization_id: w.operator.id, requester_name: person.name,
        requester_email: person.email, role: 'MEMBER', reason: 'matrix', hours: 1, break_glass: 0, state: 'APPROVED',
        date_requested: t.clock.now().toISOString(), date_decided: t.clock.now().toISOString(), decided_by: w.partnerAdmin.email,
        date_until: until, date_ended: null, ended_by: null,
      }).execute();
    }
    supportRunning = supportActive.email;
    supportRequester = (await make.member(w.operator, { role: 'DEVOPS', scope: 'ORGANIZATION' })).id;
    for (const email of [...PEOPLE.map((key) => w[key].email), running.email, ended.email, supportActive.email, supportEnded.email]) {
      people.push(await person(email));
      headers.set(email, await t.as(email));
    }
    for (const [n, k] of KEYS.entries()) {
      const org = orgs[k.org];
      const creator = people.find((p) => p.email === w[k.by].email)!;
      const roles = k.roles.map(([role, scope]) => ({ organization_id: org.id, organization_role: org.role, role, scope }));
      // Made only by someone who may grant each role there (the server's rule at creation and at every call).
      for (const [role, scope] of k.roles) {
        expect(canGrant(creator.actor, { action: 'role.assign', role, scope, member_id: '', member_organization_role: org.role }, org.target), `key ${n}`).toBe(true);
      }
      const secret = newKeySecret();
      await t.db.insertInto('api_keys').values({
        api_key_id: randomUUID(), organization_id: org.id, name: `matrix-${n}`, secret_hash: hashKeySecret(secret), roles: JSON.stringify(k.roles.map(([role, scope]) => ({ role, scope }))),
        read_only: k.readOnly ? 1 : 0, created_by: creator.actor.member_id, created_by_name: 'Matrix creator', created_by_email: creator.email,
        date_created: t.clock.now().toISOString(), date_expires: iso(t.clock.now().getTime() + 300 * DAY), date_last_used: null, last_used_from: null, date_revoked: null,
      }).execute();
      const label = `key ${n} (${k.org} ${k.roles.map((r) => r.join(' ')).join(', ')}${k.readOnly ? ', read only' : ''})`;
      people.push({
        email: label, organization_id: org.id, banned: org.key === 'banned', keyCreatorOrganizationId: creator.organization_id,
        actor: { member_id: creator.actor.member_id, organization_id: org.id, organization_role: org.role, roles, api_key: { read_only: !!k.readOnly } },
      });
      headers.set(label, { authorization: `Bearer ${secret}` });
    }
    const fx = new Fixtures(t.db, t.clock.now);
    for (const key of ORGANIZATIONS) {
      readers[key] = { member: fx.member(orgs[key].id), certificate: await fx.certificate(orgs[key].id, 'approved'), license: fx.license(orgs[key].id, 'approved') };
    }
    resource = fx.resource();
    await fx.flush();
  });

  const inject = (p: Person, call: Call) =>
    t.app.inject({ method: call.method, url: call.url, payload: call.payload as string | object | undefined, headers: { ...headers.get(p.email), ...call.headers } });
  const journal = async () => Number((await t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const count = async (table: 'certificates' | 'licenses' | 'organizations' | 'resources', organizationId?: string) => {
    let query = t.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (organizationId) query = query.where('organization_id' as never, '=', organizationId as never);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  const state = {
    certificate: (dn: string) => () => t.db.selectFrom('certificates').selectAll().where('distinguished_name', '=', dn).executeTakeFirst(),
    license: (id: string, organizationId: string) => async () => ({
      row: await t.db.selectFrom('licenses').selectAll().where('license_id', '=', id).executeTakeFirst(),
      licenses: await count('licenses', organizationId),
    }),
    member: (id: string) => async () => ({
      row: await t.db.selectFrom('members').selectAll().where('member_id', '=', id).executeTakeFirst(),
      roles: await t.db.selectFrom('role_assignments').selectAll().where('member_id', '=', id).orderBy('organization_id').orderBy('role').execute(),
    }),
    organization: (id: string) => async () => ({
      row: await t.db.selectFrom('organizations').selectAll().where('organization_id', '=', id).executeTakeFirst(),
      domains: await t.db.selectFrom('organization_domains').select('domain').where('organization_id', '=', id).orderBy('domain').execute(),
    }),
    resource: (id: string) => async () => ({
      row: await t.db.selectFrom('resources').selectAll().where('resource_id', '=', id).executeTakeFirst(),
      grants: await t.db.selectFrom('resource_grants').select('organization_id').where('resource_id', '=', id).orderBy('organization_id').execute(),
      resources: await count('resources'),
    }),
    invitations: (organizationId: string) => () => t.db.selectFrom('invitations').selectAll().where('organization_id', '=', organizationId).orderBy('invitation_id').execute(),
    notifications: (id: string) => () => t.db.selectFrom('notification_settings').selectAll().where('organization_id', '=', id).executeTakeFirst(),
    webhooks: (organizationId: string) => async () => ({
      endpoints: await t.db.selectFrom('webhook_endpoints').selectAll().where('organization_id', '=', organizationId).orderBy('endpoint_id').execute(),
      deliveries: await t.db.selectFrom('webhook_deliveries').innerJoin('webhook_endpoints', 'webhook_endpoints.endpoint_id', 'webhook_deliveries.endpoint_id')
        .select(['delivery_id', 'status']).where('organization_id', '=', organizationId).orderBy('delivery_id').execute(),
    }),
    support: (organizationId: string) => async () => ({
      requests: await t.db.selectFrom('support_requests').selectAll().where('organization_id', '=', organizationId).orderBy('request_id').execute(),
      settings: await t.db.selectFrom('support_access_settings').selectAll().where('organization_id', '=', organizationId).executeTakeFirst(),
    }),
    token: (id: string) => () => t.db.selectFrom('api_tokens').selectAll().where('token_id', '=', id).executeTakeFirst(),
    // Not when a key was last used and from where: a key's own call notes its use once a window (auth/api-key-limits.ts),
    // refused or not, and the callers include the operator's keys, so which call notes it depends on the tests' order.
    apiKeys: (organizationId: string) => () => t.db.selectFrom('api_keys')
      .select(['api_key_id', 'name', 'secret_hash', 'roles', 'read_only', 'created_by', 'date_created', 'date_expires', 'date_revoked'])
      .where('organization_id', '=', organizationId).orderBy('api_key_id').execute(),
    secret: async () => ({
      provided: t.app.masterSecret.provided,
      verifier: await t.db.selectFrom('settings').selectAll().where('name', '=', 'master-secret.verifier').executeTakeFirst(),
    }),
  };

  /**
   * For the routes that need the master secret: given here, once per app (the master-secret route
   * restarts the app to call it on one without the secret), in whatever order the routes run.
   */
  let secret: { holder: MasterSecret; given: Promise<void> } | undefined;
  const withSecret = async <T>(call: T): Promise<T> => {
    if (!t.app.masterSecret.provided) {
      if (secret?.holder !== t.app.masterSecret) {
        secret = { holder: t.app.masterSecret, given: provideMasterSecret(t.db, t.app.masterSecret, SECRET, { email: null, organization_id: null, via: 'api' }, t.clock.now()) };
      }
      await secret.given;
    }
    return call;
  };
  const reads = (p: Person, target: TargetOrganization) => !p.banned && can(p.actor, 'read', target);
  const orgUrl = (c: { org: Organization }) => `/api/organizations/${c.org.id}`;
  /** A webhook endpoint of the organization with one delivered delivery, written directly. */
  const webhook = async (organizationId: string) => {
    const n = next();
    const endpoint = `matrix-endpoint-${n}`;
    const delivery = `msg_matrix-${n}`;
    const at = new Date().toISOString();
    await t.db.insertInto('webhook_endpoints').values({
      endpoint_id: endpoint, organization_id: organizationId, url: `https://hooks.example.com/matrix/${n}`, description: '', events: '["certificate.approved"]',
      active: 1, secret: `whsec_${Buffer.alloc(32, n % 256).toString('base64')}`, previous_secret: null, previous_secret_until: null, date_created: at, date_updated: at,
    }).execute();
    await t.db.insertInto('webhook_deliveries').values({
      delivery_id: delivery, endpoint_id: endpoint, event_id: 1, event_type: 'certificate.approved', subject_key: 'certificate:x', payload: '{}',
      status: 'delivered', next_attempt_at: at, date_created: at, date_finished: at,
    }).execute();
    return { endpoint, delivery };
  };
  const memberUrl = (c: { org: Organization }, memberId: string) => `${orgUrl(c)}/members/${memberId}`;
  const certificateUrl = (c: { org: Organization }, dn: string) => `${orgUrl(c)}/certificates/${encodeURIComponent(dn)}`;
  const opOnly = (action: Action) => (a: Actor) => can(a, action, operator);

  /** Lists answer only rows of organizations the caller can read. */
  const rowsReadable = (pick: (body: unknown) => Array<{ organization_id: string }>) =>
    async (res: LightMyRequestResponse, _c: Case, readable: (id: string) => Promise<boolean>) => {
      for (const row of pick(res.json())) if (!(await readable(row.organization_id))) return `lists ${row.organization_id}, which it cannot read`;
      return null;
    };
  const items = (body: unknown) => body as Array<{ organization_id: string }>;
  const pending = (body: unknown) => {
    const b = body as { certificates: Array<{ organization_id: string }>; licenses: Array<{ organization_id: string }> };
    return [...b.certificates, ...b.licenses];
  };

  /**
   * A ban or unban acts on the organization itself, so it is put in the state the call needs
   * (unbanned for a ban, banned for an unban) and back as made afterwards. Not the caller's own
   * organization: a person whose organization is banned cannot sign in at all.
   */
  const banned = (value: boolean) => ({
    before: async ({ org, person: p }: Case) => {
      // Nobody's own organization, nor that of a key's creator (which would stop the key at sign-in).
      if (org.id === p.organization_id || org.id === p.keyCreatorOrganizationId) return;
      await t.db.updateTable('organizations').set({ date_organization_banned: value ? t.clock.now().toISOString() : null, ban_note: value ? 'matrix' : null })
        .where('organization_id', '=', org.id).execute();
    },
    after: async ({ org }: Case) => {
      await t.db.updateTable('organizations').set(org.banned).where('organization_id', '=', org.id).execute();
    },
  });

  const ROUTES: Record<string, Route> = {
    // License keys, the public key and API tokens need the master secret (withSecret gives it
    // first), and only the operator's DevOps may give it: each call goes to a process that does not
    // hold it yet (restarted when another call gave it), so the one allowed call is a 200, not a 409.
    'POST /api/admin/mastersecret': {
      kind: 'operator', ok: 200, allowed: opOnly('admin.secret'),
      before: async () => {
        if (t.app.masterSecret.provided) await t.restart();
      },
      make: async () => ({ method: 'POST', url: '/api/admin/mastersecret', payload: SECRET, headers: { 'content-type': 'text/plain' }, state: state.secret }),
    },
    'GET /api/admin/state': { kind: 'operator', ok: 200, allowed: opOnly('admin.state'), make: async () => ({ method: 'GET', url: '/api/admin/state' }) },
    'POST /api/token': {
      kind: 'operator', ok: 200, allowed: opOnly('admin.token'),
      make: async () => withSecret({ method: 'POST', url: '/api/token', payload: { upn: `gateway-${next()}`, groups: ['piston_export'], expires_in: 30 } }),
    },
    'GET /api/tokens': { kind: 'operator', ok: 200, allowed: opOnly('token.list'), make: async () => ({ method: 'GET', url: '/api/tokens' }) },
    // A recorded token made for the one call (the row as POST /api/token writes it).
    'DELETE /api/tokens/{id}': {
      kind: 'operator', ok: 200, allowed: opOnly('token.revoke'),
      make: async () => {
        const id = randomUUID();
        const at = t.clock.now();
        await t.db.insertInto('api_tokens').values({
          token_id: id, token_name: `gateway ${id}`, upn: 'gateway', groups: '["piston_export"]', organization_id: operator.organization_id,
          created_by: 'matrix@operator.example', date_created: at.toISOString(), date_expires: new Date(at.getTime() + 30 * DAY).toISOString(),
          date_last_used: null, date_revoked: null, revoked_by: null,
        }).execute();
        return { method: 'DELETE', url: `/api/tokens/${id}`, state: state.token(id) };
      },
    },

    // Public: sign-in plumbing and the key that verifies license keys.
    'GET /api/config': { kind: 'public', ok: 200, make: async () => ({ method: 'GET', url: '/api/config' }) },
    'GET /api/licenses/public-key': { kind: 'public', ok: 200, make: async () => withSecret({ method: 'GET', url: '/api/licenses/public-key' }) },

    // Any signed-in person; lists across organizations show only what the caller can read.
    'GET /api/auth/callback': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/auth/callback' }) },
    'GET /api/organizations': {
      kind: 'member', ok: 200, check: rowsReadable(items),
      make: async () => ({ method: 'GET', url: '/api/organizations?limit=1000' }),
    },
    'GET /api/certificates': {
      kind: 'member', ok: 200, check: rowsReadable(items),
      make: async () => ({ method: 'GET', url: '/api/certificates?limit=1000' }),
    },
    'GET /api/licenses': { kind: 'member', ok: 200, check: rowsReadable(items), make: async () => ({ method: 'GET', url: '/api/licenses?limit=1000' }) },
    'GET /api/members': { kind: 'member', ok: 200, check: rowsReadable(items), make: async () => ({ method: 'GET', url: '/api/members?limit=1000' }) },
    // Their CSV exports: the same callers (what rows each holds is tested with the exports).
    'GET /api/organizations.csv': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/organizations.csv' }) },
    'GET /api/certificates.csv': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/certificates.csv' }) },
    'GET /api/licenses.csv': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/licenses.csv' }) },
    'GET /api/members.csv': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/members.csv' }) },
    'GET /api/approve': { kind: 'member', ok: 200, check: rowsReadable(pending), make: async () => ({ method: 'GET', url: '/api/approve' }) },
    'GET /api/acknowledge': { kind: 'member', ok: 200, check: rowsReadable(pending), make: async () => ({ method: 'GET', url: '/api/acknowledge' }) },
    // Their four lists' CSV exports: the same callers (what rows each holds is tested in pending-export.test.ts).
    'GET /api/approve/certificates.csv': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/approve/certificates.csv?sort=-date_created' }) },
    'GET /api/approve/licenses.csv': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/approve/licenses.csv?sort=license_name' }) },
    'GET /api/acknowledge/certificates.csv': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/acknowledge/certificates.csv' }) },
    'GET /api/acknowledge/licenses.csv': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/acknowledge/licenses.csv?sort=-date_valid_until' }) },

    // Organizations.
    'GET /api/organizations/{id}': { kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: orgUrl(c) }) },
    // The access review (issue 33): per organization by `access.review`; across organizations any signed-in caller,
    // each row of an organization the caller may review.
    'GET /api/organizations/{id}/access-review': { kind: 'org', action: 'access.review', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/access-review?limit=1000` }) },
    'GET /api/organizations/{id}/access-review.csv': { kind: 'org', action: 'access.review', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/access-review.csv` }) },
    'GET /api/access-review': {
      kind: 'member', ok: 200,
      check: async (res, c) => {
        const chain = await parentChains();
        const refused = items(res.json()).find((row) => !can(c.person.actor, 'access.review', chain(row.organization_id)));
        return refused ? `lists ${refused.organization_id}, which it may not review` : null;
      },
      make: async () => ({ method: 'GET', url: '/api/access-review?limit=1000' }),
    },
    'GET /api/access-review.csv': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/access-review.csv' }) },
    'PUT /api/organizations/{id}': {
      kind: 'org', action: 'organization.save', ok: 200,
      make: async (c) => ({ method: 'PUT', url: orgUrl(c), payload: { address: `Matrix street ${next()}` }, state: state.organization(c.org.id) }),
    },
    /**
     * The target is the parent, named in the body: a CUSTOMER below it, whose own target is the
     * new organization below the parent. Only below the operator and the partner: a customer
     * cannot be a parent (a genuine 400). A parent the caller can neither read nor create below is
     * answered like a missing one (400 "Parent organization not found.", organizations/service.ts
     * placeBelow), not 404: it is a reference in the body, and the answer reveals nothing.
     */
    'POST /api/organizations': {
      kind: 'org', ok: 201, targets: ['operator', 'partner'], targetInBody: 'Parent organization not found.',
      expect: ({ person: p, org }) => {
        const child = { organization_id: 'new', ancestor_ids: [org.id, ...org.target.ancestor_ids] };
        if (can(p.actor, 'organization.create', child)) return 201;
        return can(p.actor, 'read', org.target) ? 403 : 400;
      },
      make: async (c) => ({
        method: 'POST', url: '/api/organizations',
        payload: { organization_name: `Matrix Customer ${next()}`, organization_role: 'CUSTOMER', parent_organization: c.org.id },
        state: () => count('organizations'),
      }),
    },
    /**
     * Genuine rules after authorization: the operator organization cannot be banned, nor one's own
     * (409). The state is set as the call needs it, except in the caller's own organization.
     */
    'POST /api/organizations/{id}/ban': {
      kind: 'org', action: 'organization.ban', ok: 200, ...banned(false),
      rule: ({ org, person: p }) => (org.role === 'OPERATOR' || org.id === p.organization_id ? 409 : undefined),
      make: async (c) => ({ method: 'POST', url: `${orgUrl(c)}/ban?note=matrix`, state: state.organization(c.org.id) }),
    },
    /** One's own organization cannot be banned for the call (its members could not sign in): 409 "not banned". */
    'POST /api/organizations/{id}/unban': {
      kind: 'org', action: 'organization.unban', ok: 200, ...banned(true),
      rule: ({ org, person: p }) => (org.id === p.organization_id ? 409 : undefined),
      make: async (c) => ({ method: 'POST', url: `${orgUrl(c)}/unban`, state: state.organization(c.org.id) }),
    },

    // Certificates.
    'GET /api/organizations/{id}/certificates': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/certificates?hideExpired=true&limit=50` }),
    },
    'POST /api/organizations/{id}/certificates': {
      kind: 'org', action: 'certificate.upload', ok: 201,
      make: async (c) => {
        const now = t.clock.now().getTime();
        const { pem } = await makeCertificate({ subject: `O=Matrix, CN=upload-${next()}.example`, notBefore: new Date(now - DAY), notAfter: new Date(now + 90 * DAY) });
        return { method: 'POST', url: `${orgUrl(c)}/certificates`, payload: { description: 'matrix upload', certificate: pem }, state: () => count('certificates') };
      },
    },
    /** Two new certificates in one text: each journaled once, so an allowed call is two records (checked by `journaled`). */
    'POST /api/organizations/{id}/certificates/bulk': {
      kind: 'org', action: 'certificate.upload', ok: 200, journaled: 2,
      make: async (c) => {
        const now = t.clock.now().getTime();
        const pems = await Promise.all([1, 2].map(async () => (await makeCertificate({ subject: `O=Matrix, CN=bulk-${next()}.example`, notBefore: new Date(now - DAY), notAfter: new Date(now + 90 * DAY) })).pem));
        return { method: 'POST', url: `${orgUrl(c)}/certificates/bulk`, payload: { description: 'matrix bulk upload', certificates: pems.join('\n') }, state: () => count('certificates') };
      },
      check: async (res) => (res.json().uploaded === 2 ? null : `uploaded ${res.body.slice(0, 200)}`),
    },
    'GET /api/organizations/{id}/certificates.csv': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/certificates.csv?hideExpired=true` }),
    },
    'GET /api/organizations/{id}/members/{memberId}/certificates.csv': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${memberUrl(c, readers[c.org.key].member)}/certificates.csv` }),
    },
    'GET /api/organizations/{id}/members/{memberId}/certificates': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${memberUrl(c, readers[c.org.key].member)}/certificates` }),
    },
    'GET /api/organizations/{id}/certificates/{dn}': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: certificateUrl(c, readers[c.org.key].certificate) }),
    },
    'DELETE /api/organizations/{id}/certificates/{dn}': {
      kind: 'org', action: 'certificate.remove', ok: 204,
      make: async (c, fx) => {
        const dn = await fx.certificate(c.org.id, 'revoked');
        return { method: 'DELETE', url: certificateUrl(c, dn), state: state.certificate(dn) };
      },
    },
    'POST /api/approve/{dn}': {
      kind: 'org', action: 'certificate.approve', ok: 204,
      make: async (c, fx) => {
        const dn = await fx.certificate(c.org.id, 'new');
        return { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}`, state: state.certificate(dn) };
      },
    },
    'POST /api/organizations/{id}/certificates/{dn}/revoke': {
      kind: 'org', action: 'certificate.revoke', ok: 204,
      make: async (c, fx) => {
        const dn = await fx.certificate(c.org.id, 'approved');
        return { method: 'POST', url: `${certificateUrl(c, dn)}/revoke`, state: state.certificate(dn) };
      },
    },
    'POST /api/organizations/{id}/certificates/{dn}/acknowledge-expiry': {
      kind: 'org', action: 'certificate.acknowledgeExpiry', ok: 204,
      make: async (c, fx) => {
        const dn = await fx.certificate(c.org.id, 'expired');
        return { method: 'POST', url: `${certificateUrl(c, dn)}/acknowledge-expiry`, state: state.certificate(dn) };
      },
    },
    'PUT /api/organizations/{id}/certificates/{dn}/description': {
      kind: 'org', action: 'certificate.editDescription', ok: 200,
      make: async (c, fx) => {
        const dn = await fx.certificate(c.org.id, 'approved');
        return { method: 'PUT', url: `${certificateUrl(c, dn)}/description`, payload: JSON.stringify('A new description'), headers: json, state: state.certificate(dn) };
      },
    },

    // Licenses.
    'GET /api/organizations/{id}/licenses': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/licenses?hideRequests=true&limit=50` }),
    },
    'GET /api/organizations/{id}/licenses.csv': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/licenses.csv?hideRequests=true` }),
    },
    'POST /api/organizations/{id}/licenses': {
      kind: 'org', action: 'license.request', ok: 201,
      make: async (c) => ({
        method: 'POST', url: `${orgUrl(c)}/licenses`, payload: { license_name: `Matrix request ${next()}`, license_scope: 'LAB', days_valid: 30 },
        state: () => count('licenses', c.org.id),
      }),
    },
    'GET /api/licenses/{id}': { kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `/api/licenses/${readers[c.org.key].license}` }) },
    'POST /api/licenses/{id}/approve': {
      kind: 'org', action: 'license.approve', ok: 200,
      make: async (c, fx) => {
        const id = fx.license(c.org.id, 'new');
        return { method: 'POST', url: `/api/licenses/${id}/approve`, payload: { version: 1 }, state: state.license(id, c.org.id) };
      },
    },
    'POST /api/licenses/{id}/reject': {
      kind: 'org', action: 'license.reject', ok: 200,
      make: async (c, fx) => {
        const id = fx.license(c.org.id, 'new');
        return { method: 'POST', url: `/api/licenses/${id}/reject?version=1`, state: state.license(id, c.org.id) };
      },
    },
    'POST /api/licenses/{id}/renew': {
      kind: 'org', action: 'license.renew', ok: 201,
      make: async (c, fx) => {
        const id = fx.license(c.org.id, 'renewable');
        return { method: 'POST', url: `/api/licenses/${id}/renew?version=1`, state: state.license(id, c.org.id) };
      },
    },
    'POST /api/licenses/{id}/acknowledge-expiry': {
      kind: 'org', action: 'license.acknowledgeExpiry', ok: 200,
      make: async (c, fx) => {
        const id = fx.license(c.org.id, 'expired');
        return { method: 'POST', url: `/api/licenses/${id}/acknowledge-expiry?version=1`, state: state.license(id, c.org.id) };
      },
    },
    // Bulk actions: the preview counts one organization's list as the list reads it; a run is
    // answered per item as the single call (one item, the action chosen in turn from the three).
    'GET /api/bulk/certificates/{action}/preview': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `/api/bulk/certificates/approve/preview?organization_id=${c.org.id}` }),
    },
    'POST /api/bulk/certificates/{action}': {
      kind: 'org', ok: 200, expect: () => 200, perItem: (c) => bulkItem(c, BULK_CERTIFICATES),
      make: async (c, fx) => {
        const name = bulkName(BULK_CERTIFICATES);
        const dn = await fx.certificate(c.org.id, BULK_CERTIFICATES[name].state);
        return { method: 'POST', url: `/api/bulk/certificates/${name}`, payload: { items: [{ organization_id: c.org.id, distinguished_name: dn }] }, state: state.certificate(dn) };
      },
    },
    'GET /api/bulk/licenses/{action}/preview': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `/api/bulk/licenses/reject/preview?organization_id=${c.org.id}&hideValid=true` }),
    },
    'POST /api/bulk/licenses/{action}': {
      kind: 'org', ok: 200, expect: () => 200, perItem: (c) => bulkItem(c, BULK_LICENSES),
      make: async (c, fx) => {
        const name = bulkName(BULK_LICENSES);
        const id = fx.license(c.org.id, BULK_LICENSES[name].state);
        return { method: 'POST', url: `/api/bulk/licenses/${name}`, payload: { items: [{ license_id: id, version: 1 }] }, state: state.license(id, c.org.id) };
      },
    },
    'GET /api/licenses/{id}/license-key': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => withSecret({ method: 'GET', url: `/api/licenses/${readers[c.org.key].license}/license-key` }),
    },

    // Members and roles.
    'GET /api/organizations/{id}/members': { kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/members?filter=a&limit=50` }) },
    'GET /api/organizations/{id}/members.csv': { kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/members.csv?filter=a` }) },
    'GET /api/organizations/{id}/members/{memberId}': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: memberUrl(c, readers[c.org.key].member) }),
    },
    'PUT /api/organizations/{id}/members/{memberId}': {
      kind: 'org', action: 'member.save', ok: 200,
      make: async (c, fx) => {
        const id = fx.member(c.org.id);
        return { method: 'PUT', url: memberUrl(c, id), payload: { job_role: `Matrix job ${next()}`, office_phone: '+49 40 1234' }, state: state.member(id) };
      },
    },
    'DELETE /api/organizations/{id}/members/{memberId}': {
      kind: 'org', action: 'member.remove', ok: 204,
      make: async (c, fx) => {
        const id = fx.member(c.org.id);
        return { method: 'DELETE', url: memberUrl(c, id), state: state.member(id) };
      },
    },
    'POST /api/organizations/{id}/members/{memberId}/ban': {
      kind: 'org', action: 'member.ban', ok: 200,
      make: async (c, fx) => {
        const id = fx.member(c.org.id);
        return { method: 'POST', url: `${memberUrl(c, id)}/ban?note=matrix`, state: state.member(id) };
      },
    },
    'POST /api/organizations/{id}/members/{memberId}/unban': {
      kind: 'org', action: 'member.unban', ok: 200,
      make: async (c, fx) => {
        const id = fx.member(c.org.id, { banned: true });
        return { method: 'POST', url: `${memberUrl(c, id)}/unban`, state: state.member(id) };
      },
    },
    'GET /api/organizations/{id}/members/{memberId}/status': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${memberUrl(c, readers[c.org.key].member)}/status` }),
    },
    'GET /api/organizations/{id}/members/{memberId}/roles': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${memberUrl(c, readers[c.org.key].member)}/roles` }),
    },
    /**
     * To a fresh member (never the caller, so the no-self-grant rule does not fire): roles every
     * organization may hold, and in the operator the approving, supervising and DevOps powers
     * (elsewhere those are a genuine 400). `canGrant` decides.
     */
    'POST /api/organizations/{id}/members/{memberId}/roles/assign': {
      kind: 'org', action: 'role.assign', ok: 200,
      variants: (org) => [['ISSUER', 'ORGANIZATION'], ['ADMINISTRATOR', 'COOPERATION'], ...(org.role === 'OPERATOR' ? [['SUPERVISOR', 'COOPERATION'], ['DEVOPS', 'ORGANIZATION']] as const : [])],
      rule: ({ person: p, org, variant }) =>
        canGrant(p.actor, { action: 'role.assign', role: variant![0], scope: variant![1], member_id: 'a fresh member', member_organization_role: org.role }, org.target) ? undefined : 403,
      make: async (c, fx) => {
        const id = fx.member(c.org.id);
        return { method: 'POST', url: `${memberUrl(c, id)}/roles/assign?role=${c.variant![0]}&scope=${c.variant![1]}`, state: state.member(id) };
      },
    },
    /**
     * From a fresh member holding the role. ADMINISTRATOR only where another administrator stays:
     * an organization keeps one once it has one (a genuine 409 in the customers).
     */
    'POST /api/organizations/{id}/members/{memberId}/roles/unassign': {
      kind: 'org', action: 'role.unassign', ok: 200,
      variants: (org) => [
        ['ISSUER', 'ORGANIZATION'], ['MEMBER', 'COOPERATION'],
        ...(org.role === 'CUSTOMER' ? [] : [['ADMINISTRATOR', 'COOPERATION'] as const]),
        ...(org.role === 'OPERATOR' ? [['APPROVER', 'COOPERATION'] as const] : []),
      ],
      rule: ({ person: p, org, variant }) =>
        canGrant(p.actor, { action: 'role.unassign', role: variant![0], scope: variant![1], member_id: 'a fresh member', member_organization_role: org.role }, org.target) ? undefined : 403,
      make: async (c, fx) => {
        const id = fx.member(c.org.id, { role: c.variant });
        return { method: 'POST', url: `${memberUrl(c, id)}/roles/unassign?role=${c.variant![0]}`, state: state.member(id) };
      },
    },

    // Invitations (issue 34): who may invite with a role and scope is who may assign it (canInvite). Nobody joins a
    // banned organization, so inviting to one, or resending there, is a genuine 409 for whoever may invite.
    'GET /api/organizations/{id}/invitations': {
      kind: 'org', action: 'member.invite', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/invitations?status=all&limit=10` }),
    },
    'POST /api/organizations/{id}/invitations': {
      kind: 'org', action: 'member.invite', ok: 201,
      variants: (org) => [['ISSUER', 'ORGANIZATION'], ['ADMINISTRATOR', 'COOPERATION'], ...(org.role === 'OPERATOR' ? [['SUPERVISOR', 'COOPERATION'], ['DEVOPS', 'ORGANIZATION']] as const : [])],
      rule: ({ person: p, org, variant }) =>
        (canInvite(p.actor, { role: variant![0], scope: variant![1] }, org.role, org.target) ? (org.key === 'banned' ? 409 : undefined) : 403),
      make: async (c) => ({
        method: 'POST', url: `${orgUrl(c)}/invitations`, payload: { email: `invited-${next()}@elsewhere.example`, role: c.variant![0], scope: c.variant![1] },
        state: state.invitations(c.org.id),
      }),
    },
    'POST /api/organizations/{id}/invitations/{invitationId}/resend': {
      kind: 'org', action: 'member.invite', ok: 200,
      variants: (org) => [['ISSUER', 'ORGANIZATION'], ...(org.role === 'OPERATOR' ? [['APPROVER', 'COOPERATION'] as const] : [])],
      rule: ({ person: p, org, variant }) =>
        (canInvite(p.actor, { role: variant![0], scope: variant![1] }, org.role, org.target) ? (org.key === 'banned' ? 409 : undefined) : 403),
      make: async (c, fx) => {
        const id = fx.invitation(c.org.id, c.variant!);
        return { method: 'POST', url: `${orgUrl(c)}/invitations/${id}/resend`, state: state.invitations(c.org.id) };
      },
    },
    'DELETE /api/organizations/{id}/invitations/{invitationId}': {
      kind: 'org', action: 'member.invite', ok: 204,
      variants: (org) => [['ISSUER', 'ORGANIZATION'], ...(org.role === 'OPERATOR' ? [['APPROVER', 'COOPERATION'] as const] : [])],
      rule: ({ person: p, org, variant }) => (canInvite(p.actor, { role: variant![0], scope: variant![1] }, org.role, org.target) ? undefined : 403),
      make: async (c, fx) => {
        const id = fx.invitation(c.org.id, c.variant!);
        return { method: 'DELETE', url: `${orgUrl(c)}/invitations/${id}`, state: state.invitations(c.org.id) };
      },
    },

    // Journal.
    'GET /api/organizations/{id}/auditrecords.csv': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/auditrecords.csv?filter=a` }),
    },
    'GET /api/organizations/{id}/auditrecords': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/auditrecords?filter=a&offset=0&limit=20` }),
    },

    // Resources: global, so operator-only; the organization's own list is read like its other data.
    'GET /api/organizations/{id}/resources': { kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/resources` }) },
    'GET /api/resources': { kind: 'operator', ok: 200, allowed: (a) => SCREENS.resources(a), make: async () => ({ method: 'GET', url: '/api/resources?filter=a' }) },
    'GET /api/organizations/{id}/resources.csv': { kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/resources.csv` }) },
    'GET /api/resources.csv': { kind: 'operator', ok: 200, allowed: (a) => SCREENS.resources(a), make: async () => ({ method: 'GET', url: '/api/resources.csv?filter=a' }) },
    'GET /api/resources/{id}': { kind: 'operator', ok: 200, allowed: (a) => SCREENS.resources(a), make: async () => ({ method: 'GET', url: `/api/resources/${resource}` }) },
    'POST /api/resources': {
      kind: 'operator', ok: 201, allowed: (a) => SCREENS.resources(a) && can(a, 'resource.create', operator),
      make: async () => {
        const n = next();
        return {
          method: 'POST', url: '/api/resources', state: () => count('resources'),
          payload: { ordinal: 200_000 + n, resource_name: `Matrix new ${n}`, resource_type: 'LINUX_PACKAGE', resource_access: 'PUBLIC', path_pattern: `/matrix-new/${n}/**`, location: `/srv/matrix-new/${n}` },
        };
      },
    },
    'PUT /api/resources/{id}': {
      kind: 'operator', ok: 200, allowed: (a) => SCREENS.resources(a) && can(a, 'resource.update', operator),
      make: async (_c, fx) => {
        const id = fx.resource();
        const n = next();
        return {
          method: 'PUT', url: `/api/resources/${id}`, state: state.resource(id),
          payload: { resource_name: `Matrix saved ${n}`, resource_type: 'IMAGE_STORE', resource_access: 'RESTRICTED', path_pattern: `/matrix-saved/${n}/*`, location: `/srv/matrix-saved/${n}`, description: 'saved' },
        };
      },
    },
    'DELETE /api/resources/{id}': {
      kind: 'operator', ok: 204, allowed: (a) => SCREENS.resources(a) && can(a, 'resource.delete', operator),
      make: async (_c, fx) => {
        const id = fx.resource();
        return { method: 'DELETE', url: `/api/resources/${id}`, state: state.resource(id) };
      },
    },
    /** Both rows of SPEC.md §6 reach this call: resource.grant on the operator, or resource.toggleOrganization on the organization. */
    'POST /api/resources/{id}/add': {
      kind: 'operator', ok: 200, targets: ORGANIZATIONS,
      allowed: (a, org) => SCREENS.resources(a) && (can(a, 'resource.grant', operator) || can(a, 'resource.toggleOrganization', org.target)),
      make: async (c, fx) => {
        const id = fx.resource();
        return { method: 'POST', url: `/api/resources/${id}/add?organization=${c.org.id}`, state: state.resource(id) };
      },
    },
    'POST /api/resources/{id}/remove': {
      kind: 'operator', ok: 200, targets: ORGANIZATIONS,
      allowed: (a, org) => SCREENS.resources(a) && (can(a, 'resource.grant', operator) || can(a, 'resource.toggleOrganization', org.target)),
      make: async (c, fx) => {
        const id = fx.resource(c.org.id);
        return { method: 'POST', url: `/api/resources/${id}/remove?organization=${c.org.id}`, state: state.resource(id) };
      },
    },

    // The overview (issue 12): an organization's is read like its lists; all organizations' by operator staff only.
    'GET /api/organizations/{id}/overview': { kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/overview` }) },
    'GET /api/admin/overview': { kind: 'operator', ok: 200, allowed: (a) => SCREENS.overview(a), make: async () => ({ method: 'GET', url: '/api/admin/overview' }) },

    // Notifications (issue 13): an organization's rules by those who manage them; anyone's own notices.
    'GET /api/organizations/{id}/notifications': { kind: 'org', action: 'notifications.manage', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/notifications` }) },
    'PUT /api/organizations/{id}/notifications': {
      kind: 'org', action: 'notifications.manage', ok: 200,
      make: async (c) => ({
        method: 'PUT', url: `${orgUrl(c)}/notifications`, state: state.notifications(c.org.id),
        payload: { events: ['certificate.expiring'], expiry_days: [30, 61 + (next() % 200)], waiting_days: 3, recipient_roles: ['ADMINISTRATOR'], extra_addresses: [], email: true },
      }),
    },
    'GET /api/organizations/{id}/webhooks': { kind: 'org', action: 'notifications.manage', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/webhooks` }) },
    'POST /api/organizations/{id}/webhooks': {
      kind: 'org', action: 'notifications.manage', ok: 201,
      make: async (c) => ({ method: 'POST', url: `${orgUrl(c)}/webhooks`, state: state.webhooks(c.org.id), payload: { url: `https://hooks.example.com/${next()}`, events: ['certificate.approved'] } }),
    },
    'PUT /api/organizations/{id}/webhooks/{endpointId}': {
      kind: 'org', action: 'notifications.manage', ok: 200,
      make: async (c) => ({
        method: 'PUT', url: `${orgUrl(c)}/webhooks/${(await webhook(c.org.id)).endpoint}`, state: state.webhooks(c.org.id),
        payload: { url: `https://hooks.example.com/saved/${next()}`, events: ['license.approved'], active: false },
      }),
    },
    'DELETE /api/organizations/{id}/webhooks/{endpointId}': {
      kind: 'org', action: 'notifications.manage', ok: 204,
      make: async (c) => ({ method: 'DELETE', url: `${orgUrl(c)}/webhooks/${(await webhook(c.org.id)).endpoint}`, state: state.webhooks(c.org.id) }),
    },
    'POST /api/organizations/{id}/webhooks/{endpointId}/rotate-secret': {
      kind: 'org', action: 'notifications.manage', ok: 200,
      make: async (c) => ({ method: 'POST', url: `${orgUrl(c)}/webhooks/${(await webhook(c.org.id)).endpoint}/rotate-secret`, state: state.webhooks(c.org.id) }),
    },
    'GET /api/organizations/{id}/webhooks/{endpointId}/deliveries': {
      kind: 'org', action: 'notifications.manage', ok: 200,
      make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/webhooks/${(await webhook(c.org.id)).endpoint}/deliveries` }),
    },
    'POST /api/organizations/{id}/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver': {
      kind: 'org', action: 'notifications.manage', ok: 200,
      make: async (c) => {
        const { endpoint, delivery } = await webhook(c.org.id);
        return { method: 'POST', url: `${orgUrl(c)}/webhooks/${endpoint}/deliveries/${delivery}/redeliver`, state: state.webhooks(c.org.id) };
      },
    },
    // Organization API keys (issue 32): an organization's by those who manage them, all organizations' by the vendor's supervisors.
    'GET /api/organizations/{id}/api-keys': { kind: 'org', action: 'apiKey.manage', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/api-keys` }) },
    'POST /api/organizations/{id}/api-keys': {
      kind: 'org', action: 'apiKey.manage', ok: 201,
      make: async (c) => ({
        method: 'POST', url: `${orgUrl(c)}/api-keys`, state: state.apiKeys(c.org.id),
        payload: { name: `matrix ${next()}`, roles: [{ role: 'MEMBER', scope: 'ORGANIZATION' }], date_expires: iso(t.clock.now().getTime() + 30 * DAY) },
      }),
    },
    'DELETE /api/organizations/{id}/api-keys/{keyId}': {
      kind: 'org', action: 'apiKey.manage', ok: 204,
      make: async (c, fx) => ({ method: 'DELETE', url: `${orgUrl(c)}/api-keys/${fx.apiKey(c.org.id)}`, state: state.apiKeys(c.org.id) }),
    },
    'GET /api/api-keys': { kind: 'operator', ok: 200, allowed: (a) => canGlobally(a, 'apiKey.review'), make: async () => ({ method: 'GET', url: '/api/api-keys' }) },
    // Vendor support access (issue 33 item 2): the policy's canSupport decides; the organization is seen by those who
    // read it or may see its support access (404 for everyone else); a decision journals on both sides.
    'GET /api/organizations/{id}/support-access': {
      kind: 'org', ok: 200, expect: (c) => supportExpect(c, 'list', 200),
      make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/support-access` }),
    },
    'POST /api/organizations/{id}/support-access': {
      kind: 'org', ok: 201, journaled: 2,
      // The person whose access to the customer runs has an open request there: a second one is a 409.
      expect: (c) => (c.person.email === supportRunning && c.org.key === 'customer' && supportAllowed(c, 'request') ? 409 : supportExpect(c, 'request', 201)),
      make: async (c) => ({ method: 'POST', url: `${orgUrl(c)}/support-access`, payload: { reason: 'matrix', hours: 2 }, state: state.support(c.org.id) }),
    },
    'GET /api/organizations/{id}/support-access/active': {
      kind: 'org', action: 'read', ok: 200, make: async (c) => ({ method: 'GET', url: `${orgUrl(c)}/support-access/active` }),
    },
    'PUT /api/organizations/{id}/support-access/settings': {
      kind: 'org', ok: 200, expect: (c) => supportExpect(c, 'decide', 200),
      make: async (c) => ({ method: 'PUT', url: `${orgUrl(c)}/support-access/settings`, payload: { auto_approve: false, max_hours: 4 }, state: state.support(c.org.id) }),
    },
    'POST /api/organizations/{id}/support-access/{requestId}/approve': decision('approve'),
    'POST /api/organizations/{id}/support-access/{requestId}/deny': decision('deny'),
    'POST /api/organizations/{id}/support-access/{requestId}/end': decision('end'),
    'GET /api/support-access': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/support-access' }) },
    'GET /api/notices': { kind: 'member', ok: 200, make: async () => ({ method: 'GET', url: '/api/notices' }) },
    // The approval-mail preference (issue 34): the caller's own, for those who settle approvals; journaled in their organization.
    'GET /api/notices/preferences': { kind: 'operator', ok: 200, allowed: (a) => canGlobally(a, 'approval.mail'), make: async () => ({ method: 'GET', url: '/api/notices/preferences' }) },
    'PUT /api/notices/preferences': {
      kind: 'operator', ok: 200, allowed: (a) => canGlobally(a, 'approval.mail'),
      make: async () => ({ method: 'PUT', url: '/api/notices/preferences', payload: { approval_mail: next() % 2 ? 'digest' : 'each', time_zone: 'Europe/Berlin' } }),
    },
    // A read mark is the reader's own, like a mail client's: not a change of the organization's (docs/decisions.md "Notifications").
    'POST /api/notices/read': { kind: 'member', ok: 200, journaled: 0, make: async () => ({ method: 'POST', url: '/api/notices/read', payload: {} }) },

    // The gateway's exports: DevOps of the operator (and gateway tokens, tested in piston.test.ts).
    'GET /api/piston/routes.hcl': { kind: 'operator', ok: 200, noKeys: true, allowed: (a) => SCREENS.piston(a), make: async () => ({ method: 'GET', url: '/api/piston/routes.hcl' }) },
    'GET /api/piston/certs': { kind: 'operator', ok: 200, noKeys: true, allowed: (a) => SCREENS.piston(a), make: async () => ({ method: 'GET', url: '/api/piston/certs' }) },
    'GET /api/piston/statistics': { kind: 'operator', ok: 200, noKeys: true, allowed: (a) => SCREENS.piston(a), make: async () => ({ method: 'GET', url: '/api/piston/statistics' }) },
  };

  /** Whether the policy allows the support-access action on the case's organization. */
  function supportAllowed(c: Omit<Case, 'call'>, action: SupportAction): boolean {
    return canSupport(c.person.actor, action, c.org.target);
  }
  /** 404 where the caller neither reads the organization nor may see its support access, 403 where not allowed, else `ok`. */
  function supportExpect(c: Case, action: SupportAction, ok: number): number {
    if (supportAllowed(c, action)) return ok;
    return can(c.person.actor, 'read', c.org.target) || supportAllowed(c, 'list') ? 403 : 404;
  }
  /**
   * A decision on a fresh waiting request of another support person: refused unless the caller consents (decide; the
   * matrix's people are never the requester); support staff who may list see only their own requests (404).
   */
  function decision(what: 'approve' | 'deny' | 'end'): Route {
    return {
      kind: 'org', ok: 200, journaled: 2,
      expect: (c) => {
        const list = supportAllowed(c, 'list');
        if (!list) return can(c.person.actor, 'read', c.org.target) ? 403 : 404;
        return supportAllowed(c, 'decide') ? 200 : 404;
      },
      make: async (c) => {
        const at = t.clock.now().toISOString();
        const { request_id: id } = await t.db.insertInto('support_requests').values({
          organization_id: c.org.id, member_id: supportRequester, requester_organization_id: operator.organization_id, requester_name: 'Matrix support',
          requester_email: 'support@matrix.example', role: 'MEMBER', reason: 'matrix', hours: 1, break_glass: 0, state: 'REQUESTED',
          date_requested: at, date_decided: null, decided_by: null, date_until: null, date_ended: null, ended_by: null,
        }).returning('request_id').executeTakeFirstOrThrow();
        return { method: 'POST', url: `${orgUrl(c)}/support-access/${id}/${what}`, state: state.support(c.org.id) };
      },
    };
  }

  /** The bulk actions, the policy's action of each and the state an item needs for it. */
  const BULK_CERTIFICATES = {
    approve: { action: 'certificate.approve', state: 'new' },
    revoke: { action: 'certificate.revoke', state: 'approved' },
    'acknowledge-expiry': { action: 'certificate.acknowledgeExpiry', state: 'expired' },
  } as const;
  const BULK_LICENSES = {
    approve: { action: 'license.approve', state: 'new' },
    reject: { action: 'license.reject', state: 'new' },
    'acknowledge-expiry': { action: 'license.acknowledgeExpiry', state: 'expired' },
  } as const;
  /** The next action in turn, so each route's calls try all three. */
  const bulkName = <K extends string>(actions: Record<K, unknown>): K => {
    const names = Object.keys(actions) as K[];
    return names[next() % names.length];
  };
  /** The single call's answer for the one item of a bulk call: 404 unreadable, 403 not allowed, else done. */
  const bulkItem = (c: Case, actions: Record<string, { action: Action }>) => {
    const { action } = actions[c.call.url.split('/').pop()!];
    if (!can(c.person.actor, 'read', c.org.target)) return 404;
    return can(c.person.actor, action, c.org.target) ? 200 : 403;
  };

  const targetsOf = (route: Route): readonly OrganizationKey[] => route.targets ?? (route.kind === 'org' ? ORGANIZATIONS : ['operator']);

  function expected(route: Route, c: Case): number {
    if (route.kind === 'public') return route.ok;
    if (c.person.keyCreatorOrganizationId && route.noKeys) return 401;
    if (c.person.banned) return 403;
    if (route.expect) return route.expect(c);
    const a = c.person.actor;
    switch (route.kind) {
      case 'member':
        return route.ok;
      case 'operator':
        return route.allowed!(a, c.org) ? route.ok : 403;
      case 'org':
        if (!can(a, 'read', c.org.target)) return 404;
        if (!can(a, route.action!, c.org.target)) return 403;
        return route.rule?.(c) ?? route.ok;
    }
  }

  /**
   * The caller cannot read the target (for operator-only routes: the operator organization). The
   * banned organization's member, refused at sign-in before any target is looked at, is tried with
   * the malformed inputs in their own organization only.
   */
  function foreign(route: Route, c: Case): boolean {
    if (c.person.banned) return c.org.key === 'banned' || !targetsOf(route).includes('banned');
    if (route.kind === 'public' || route.kind === 'member') return false;
    return !reads(c.person, route.kind === 'operator' ? operator : c.org.target);
  }

  async function run(route: Route): Promise<{ failures: string[]; calls: number; allowed: number; foreignChecks: number }> {
    const fx = new Fixtures(t.db, t.clock.now);
    const keys = targetsOf(route);
    const made: Array<Promise<Case>> = [];
    for (const key of keys) {
      const org = orgs[key];
      for (const variant of route.variants?.(org) ?? [undefined]) {
        for (const p of people) made.push(route.make({ person: p, org, variant }, fx).then((call) => ({ person: p, org, variant, call })));
      }
    }
    const cases = await Promise.all(made);
    await fx.flush();
    const chain = await parentChains();
    const failures: string[] = [];
    let allowed = 0;
    let foreignChecks = 0;
    for (const c of cases) {
      const label = `${c.person.email} on ${c.org.key}${c.variant ? ` (${c.variant.join(' ')})` : ''}`;
      const want = expected(route, c);
      // A bulk call's one item: done or refused as its single call (the HTTP answer is `want`, 200).
      const itemWant = want < 300 ? route.perItem?.(c) : undefined;
      const write = c.call.method !== 'GET';
      await route.before?.(c);
      try {
        const [journalBefore, objectBefore] = write ? await Promise.all([journal(), c.call.state?.()]) : [0, undefined];
        const unchanged = async (after: string) => {
          const [journalAfter, objectAfter] = await Promise.all([journal(), c.call.state?.()]);
          if (journalAfter !== journalBefore) failures.push(`${label}: the journal changed after ${after}`);
          if (c.call.state && !isDeepStrictEqual(objectAfter, objectBefore)) failures.push(`${label}: the object changed after ${after}`);
        };
        const res = await inject(c.person, c.call);
        if (res.statusCode !== want) {
          failures.push(`${label}: ${res.statusCode}, expected ${want} ${res.statusCode < 300 ? 'UNEXPECTED ALLOW' : 'UNEXPECTED REFUSAL'} ${res.body.slice(0, 160)}`);
          continue;
        }
        // Refused at sign-in, not by a rule: the web app is sent to the access error page.
        if (c.person.banned && route.kind !== 'public' && want === 403 && res.json().redirect !== 'AccessError') failures.push(`${label}: not refused at sign-in ${res.body}`);
        if (want === 400 && route.targetInBody && res.json().message !== route.targetInBody) failures.push(`${label}: not answered as missing ${res.body}`);
        if (itemWant !== undefined) {
          const item = (res.json() as { results?: Array<{ status: number }> }).results?.[0];
          if (item?.status !== itemWant) {
            failures.push(`${label}: the item answered ${item?.status}, expected ${itemWant} ${res.body.slice(0, 160)}`);
            continue;
          }
        }
        if ((itemWant ?? want) < 300) {
          allowed++;
          // An allowed write did its work: every change of the portal is journaled, once per change.
          if (write && (await journal()) !== journalBefore + (route.journaled ?? 1)) failures.push(`${label}: allowed, but not journaled ${route.journaled ?? 1} time(s)`);
          const problem = await route.check?.(res, c, async (id) => reads(c.person, chain(id)));
          if (problem) failures.push(`${label}: ${problem}`);
          continue;
        }
        if (!write) continue;
        await unchanged('the refusal');
        if (!foreign(route, c)) continue;
        // A foreign target is refused whatever the input, never with a 400 first.
        for (const bad of MALFORMED) {
          foreignChecks++;
          const r = await inject(c.person, bad.call(c.call));
          const inBody = route.targetInBody || route.perItem;
          const ok = inBody ? r.statusCode >= 400 && r.statusCode < 500 : r.statusCode === want;
          if (!ok) failures.push(`${label} with ${bad.name}: ${r.statusCode}, expected ${inBody ? 'a refusal' : want} ${r.body.slice(0, 160)}`);
        }
        await unchanged('the malformed inputs');
      } finally {
        await route.after?.(c);
      }
    }
    return { failures, calls: cases.length, allowed, foreignChecks };
  }

  it('has an entry for every route of the OpenAPI document, and none for a route that is gone', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.length).toBeGreaterThan(50);
    expect(documented.filter((route) => !(route in ROUTES)), 'routes without an entry in the matrix').toEqual([]);
    expect(Object.keys(ROUTES).filter((route) => !documented.includes(route)), 'entries without a route').toEqual([]);
    // Every action of common/policy.ts is decided by some route: as its `action`, or in its `allowed`/`expect`.
    const used = new Set<string>(Object.values(ROUTES).map((r) => r.action ?? ''));
    const inFunctions = ['admin.secret', 'admin.state', 'admin.token', 'token.list', 'token.revoke', 'resource.create', 'resource.update', 'resource.delete', 'resource.grant', 'resource.toggleOrganization', 'organization.create'];
    expect(Object.keys(ACTIONS).filter((a) => !used.has(a) && !inFunctions.includes(a))).toEqual([]);
  });

  for (const [key, route] of Object.entries(ROUTES)) {
    it(key, async () => {
      const { failures, calls, allowed, foreignChecks } = await run(route);
      expect(failures).toEqual([]);
      // Each route is allowed for someone (no vacuous matrix) and refused for someone, except public ones.
      expect(allowed, 'calls allowed').toBeGreaterThan(0);
      if (route.kind !== 'public') expect(allowed, 'calls refused').toBeLessThan(calls);
      if (route.kind !== 'public' && route.kind !== 'member' && key.split(' ')[0] !== 'GET') expect(foreignChecks, 'foreign inputs tried').toBeGreaterThan(0);
    });
  }
});
