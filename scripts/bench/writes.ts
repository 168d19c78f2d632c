/**
 * The writes of real use, each one HTTP call as the web app makes it, by a person allowed to make it
 * (common/policy.ts): uploads of fresh certificates (an ISSUER or APPROVER of the organization),
 * approvals (the operator's approver), description edits (the supervisor), license requests (as
 * uploads) and role changes (the organization's ADMINISTRATOR gives a MEMBER the ISSUER role, then
 * takes it back). Each also writes a journal record and, where rules say so, notices.
 */
import type { PreparedDatabase } from './database';
import type { PemPool } from './pems';
import type { Organization, Person } from './people';

export type WriteKind = 'upload' | 'approve' | 'description' | 'license' | 'role';
export const WRITE_KINDS: readonly WriteKind[] = ['upload', 'approve', 'description', 'license', 'role'];

export interface WriteOutcome {
  kind: WriteKind;
  status: number;
  ms: number;
  /** The answer's text when it was not 2xx, or the connection error or timeout. */
  error?: string;
  /** An upload's certificate. */
  dn?: string;
}

export interface Writes {
  /** One write of `kind` in `organization`; undefined when the organization has nobody or nothing for it. */
  write(kind: WriteKind, organization: Organization): Promise<WriteOutcome | undefined>;
  /** Approves one certificate (a closed-loop writer's own upload). */
  approve(dn: string): Promise<WriteOutcome>;
}

interface Call {
  method: 'POST' | 'PUT';
  path: string;
  bearer: string;
  body?: unknown;
}

const firstWith = (organization: Organization, roles: string[]): Person | undefined =>
  organization.people.find((p) => roles.includes(p.role));

export async function makeWrites(
  url: string, database: PreparedDatabase, staff: Record<'supervisor' | 'approver', string>, pems: PemPool,
): Promise<Writes> {
  // Certificates to edit (one per organization) and certificates already waiting for approval, for when
  // an approval comes before any upload of the run has.
  const someCertificate = new Map(
    (await database.query<{ organization_id: string; dn: string }>('select organization_id, max(distinguished_name) as dn from certificates group by organization_id'))
      .map((r) => [r.organization_id, r.dn]),
  );
  const waiting = (await database.query<{ dn: string }>(
    'select distinguished_name as dn from certificates where date_approved is null and date_revoked is null order by distinguished_name',
  )).map((r) => r.dn);
  const uploaded: string[] = [];
  const issuerRole = new Map<string, boolean>();
  let serial = 0;

  const send = async (kind: WriteKind, call: Call): Promise<WriteOutcome> => {
    const started = performance.now();
    try {
      const response = await fetch(`${url}${call.path}`, {
        method: call.method,
        // As the web app sends them: a JSON content type only with a body (the portal refuses an empty JSON body).
        headers: { authorization: `Bearer ${call.bearer}`, 'x-requested-with': 'JavaScript', ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      if (!response.ok) return { kind, status: response.status, ms, error: text.slice(0, 200) };
      return { kind, status: response.status, ms, dn: kind === 'upload' ? (JSON.parse(text) as { distinguished_name: string }).distinguished_name : undefined };
    } catch (error) {
      return { kind, status: 0, ms: performance.now() - started, error: (error as Error).message };
    }
  };

  const org = (o: Organization) => `/api/organizations/${o.id}`;
  const calls: Record<WriteKind, (o: Organization) => Promise<Call | undefined> | Call | undefined> = {
    upload: async (o) => ({
      method: 'POST', path: `${org(o)}/certificates`, bearer: firstWith(o, ['ISSUER', 'APPROVER'])?.bearer ?? staff.supervisor,
      body: { certificate: await pems.take(), description: `Bench upload ${serial++}` },
    }),
    // The newest upload of the run first (a person approves what just came in), else one the data set left waiting.
    approve: () => {
      const dn = uploaded.pop() ?? waiting.pop();
      return dn ? { method: 'POST', path: `/api/approve/${encodeURIComponent(dn)}`, bearer: staff.approver } : undefined;
    },
    description: (o) => {
      const dn = someCertificate.get(o.id);
      return dn ? { method: 'PUT', path: `${org(o)}/certificates/${encodeURIComponent(dn)}/description`, bearer: staff.supervisor, body: `Edited by the bench ${serial++}` } : undefined;
    },
    license: (o) => ({
      method: 'POST', path: `${org(o)}/licenses`, bearer: firstWith(o, ['ISSUER', 'APPROVER'])?.bearer ?? staff.supervisor,
      body: { license_name: `Bench request ${process.pid}-${serial++}`, license_scope: 'EVALUATION', days_valid: 20 },
    }),
    role: (o) => {
      const admin = firstWith(o, ['ADMINISTRATOR']);
      const member = firstWith(o, ['MEMBER']);
      if (!admin || !member) return undefined;
      const has = issuerRole.get(member.memberId) ?? false;
      issuerRole.set(member.memberId, !has);
      const action = has ? 'unassign?role=ISSUER' : 'assign?role=ISSUER&scope=ORGANIZATION';
      return { method: 'POST', path: `${org(o)}/members/${member.memberId}/roles/${action}`, bearer: admin.bearer };
    },
  };

  return {
    async write(kind, organization) {
      const call = await calls[kind](organization);
      if (!call) return undefined;
      const outcome = await send(kind, call);
      if (outcome.dn) uploaded.push(outcome.dn);
      return outcome;
    },
    approve(dn) {
      // A closed-loop writer approves its own upload: it is no longer one for the open-loop approvals.
      const at = uploaded.lastIndexOf(dn);
      if (at >= 0) uploaded.splice(at, 1);
      return send('approve', { method: 'POST', path: `/api/approve/${encodeURIComponent(dn)}`, bearer: staff.approver });
    },
  };
}
