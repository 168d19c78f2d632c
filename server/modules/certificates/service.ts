/**
 * Certificate rules: who may act (policy.ts), in which state (status.ts), and the audit record
 * of each change in the same transaction.
 */
import type { Db, Queryable } from '../../db/database';
import type { Versions } from '../../db/versions';
import { memberOf } from '../members/service';
import type { RequestActor } from '../../auth/actor';
import { abilitiesOn, OBJECT_ACTIONS, type Action, type Actor, type TargetOrganization } from '../../../common/policy';
import { abilitiesIn } from '../../access/abilities';
import { z } from 'zod';
import { certificateSummarySchema, descriptionSchema, type Certificate, type CertificateSummary } from '../../../common/schemas/certificate';
import type { CertificateExportQuery, CertificateListQuery } from '../../../common/schemas/lists';
import { csvDisposition, csvStream, journalExport, keyedBatches, exportedOrganizationName } from '../../http/csv';
import { certificateCsvColumns } from './csv-export';
import type { PendingCertificateSort } from '../../../common/schemas/pending';
import { certificateStatus } from '../../../common/status';
import { authorize } from '../../access/authorize';
import { readableOrganizationIds } from '../../access/tree';
import { audit, type AuditReason, type AuditSubject } from '../../db/audit';
import { badRequest, conflict, notFound } from '../../errors';
import { lockRow } from '../../db/lock';
import { encodeJson, type JsonPage } from '../../http/kept-answers';
import { certificateFacts, readCertificatePem, type CertificateFacts } from './x509';
import * as repo from './repository';
import type { CertificateDetailRow, CertificateListRow } from './repository';

const MISSING = 'Certificate not found.';

/** A certificate as the lists show it, with what the caller may do to it (access/abilities.ts). */
function toSummary(row: CertificateListRow | CertificateDetailRow, abilities: Action[]): CertificateSummary {
  return {
    distinguished_name: row.distinguished_name,
    description: row.description,
    owner: row.owner_member_id && row.owner_name ? { member_id: row.owner_member_id, name: row.owner_name } : null,
    date_not_before: row.date_not_before,
    date_not_after: row.date_not_after,
    date_approved: row.date_approved,
    date_revoked: row.date_revoked,
    date_expiry_acknowledged: row.date_expiry_acknowledged,
    date_created: row.date_created,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    abilities,
  };
}

function toCertificate(row: CertificateDetailRow, target: TargetOrganization, actor: Actor, facts?: CertificateFacts): Certificate {
  return {
    ...toSummary(row, abilitiesOn(actor, OBJECT_ACTIONS.certificate, target)),
    approver: row.approver_member_id && row.approver_name ? { member_id: row.approver_member_id, name: row.approver_name } : null,
    certificate_pem: row.certificate_pem,
    serial_number: row.serial_number,
    signature: row.signature,
    signature_algorithm: row.signature_algorithm,
    version: row.version,
    // Read from the PEM the detail reads anyway (an upload's from its own parse): the stored fingerprint is for the
    // lists' CSV (repository.ts).
    ...(facts ?? certificateFacts(row.certificate_pem)),
  };
}

const summaries = z.array(certificateSummarySchema);

/**
 * One page of certificates as JSON. Summaries do not read the clock; filters may (routes.ts keeps those
 * pages not): the page then says when a row may enter or leave them, so an open list fetches it again.
 */
async function page(db: Db, actor: RequestActor, organizations: 'all' | string[], query: repo.CertificateListQuery, now: Date): Promise<JsonPage> {
  const [{ rows, total }, changesAt] = await Promise.all([
    repo.listCertificates(db, organizations, query, now),
    repo.nextFilterChange(db, organizations, query, now),
  ]);
  return { ...(await encodePage(db, actor, rows, total)), changesAt };
}

async function encodePage(db: Queryable, actor: Actor & { versions?: Versions }, rows: CertificateListRow[], total: number): Promise<JsonPage> {
  const may = await abilitiesIn(db, actor, 'certificate', rows.map((r) => r.organization_id));
  return { json: encodeJson(summaries, rows.map((row) => toSummary(row, may(row.organization_id)))), total };
}

/** One page of the pending approvals or acknowledgements as JSON (pending/service.ts joins the pages). */
export async function pendingPage(
  db: Queryable, actor: Actor & { versions?: Versions }, organizations: 'all' | string[], kind: 'approval' | 'acknowledgement', now: Date,
  paging: { offset: number; limit: number; sort?: PendingCertificateSort },
): Promise<JsonPage> {
  const { rows, total } = await repo.listPendingCertificates(db, organizations, kind, now, paging);
  return encodePage(db, actor, rows, total);
}

export async function listForOrganization(db: Db, actor: RequestActor, organizationId: string, query: CertificateListQuery, now: Date) {
  await authorize(db, actor, 'read', organizationId);
  return page(db, actor, [organizationId], query, now);
}

/** The admin list: certificates of every organization where the actor has an applying role. */
export async function listForActor(db: Db, actor: RequestActor, query: CertificateListQuery, now: Date) {
  return page(db, actor, await readableOrganizationIds(db, actor), query, now);
}

/**
 * The certificate list as CSV (docs/decisions.md "CSV export"): every row under the list's filters
 * and order, read a thousand at a time, statuses computed as the list's badges are at the request's
 * instant. `listForOrganization`'s authorization; journaled in the organization's journal.
 */
export async function exportForOrganization(db: Db, actor: RequestActor, organizationId: string, query: CertificateExportQuery, now: () => Date) {
  await authorize(db, actor, 'read', organizationId);
  const name = await exportedOrganizationName(db, organizationId);
  return exportCertificates(db, [organizationId], query, now, journalExport(db, actor, organizationId, `the certificates of ${name}`, query, now), name);
}

/** The admin list as CSV, as `listForActor` reads it; journaled in the caller's organization's journal. */
export async function exportForActor(db: Db, actor: RequestActor, query: CertificateExportQuery, now: () => Date) {
  const organizations = await readableOrganizationIds(db, actor);
  return exportCertificates(db, organizations, query, now, journalExport(db, actor, actor.organization_id, 'the certificates of all organizations', query, now), 'all');
}

/** The certificates a member owns as CSV, as `listOwnedBy` reads them; journaled in the organization's journal. */
export async function exportOwnedBy(db: Db, actor: RequestActor, organizationId: string, memberId: string, query: CertificateExportQuery, now: () => Date) {
  await authorize(db, actor, 'read', organizationId);
  const member = await memberOf(db, organizationId, memberId);
  const onEnd = journalExport(db, actor, organizationId, `the certificates of ${member.member_email}`, query, now);
  return exportCertificates(db, [organizationId], { ...query, owner_member_id: memberId }, now, onEnd, member.name || member.member_email);
}

function exportCertificates(
  db: Db, organizations: 'all' | string[], query: CertificateExportQuery & { owner_member_id?: string }, now: () => Date,
  onEnd: (rows: number, complete: boolean) => Promise<void>, fileName: string,
) {
  const at = now();
  const batches = keyedBatches(() => repo.listCertificateKeys(db, organizations, query, at), (keys) => repo.certificatesByKey(db, keys), (c) => c.distinguished_name);
  return { body: csvStream(certificateCsvColumns(at), batches, onEnd), disposition: csvDisposition('certificates', fileName, at) };
}

export async function listOwnedBy(db: Db, actor: RequestActor, organizationId: string, memberId: string, query: CertificateListQuery, now: Date) {
  await authorize(db, actor, 'read', organizationId);
  await memberOf(db, organizationId, memberId);
  return page(db, actor, [organizationId], { ...query, owner_member_id: memberId }, now);
}

export async function getCertificate(db: Db, actor: RequestActor, organizationId: string, dn: string): Promise<Certificate> {
  const target = await authorize(db, actor, 'read', organizationId, MISSING);
  const row = await repo.findCertificate(db, dn, organizationId);
  if (!row) throw notFound(MISSING);
  return toCertificate(row, target, actor);
}

export async function uploadCertificate(
  db: Db, actor: RequestActor, organizationId: string, input: { description: string; certificate: string }, now: Date,
): Promise<Certificate> {
  const target = await authorize(db, actor, 'certificate.upload', organizationId);
  const { parsed, facts } = readCertificatePem(input.certificate);
  await db.transaction().execute(async (tx) => {
    const existing = await repo.findCertificate(tx, parsed.distinguished_name);
    if (existing) throw conflict(`A certificate with the distinguished name ${parsed.distinguished_name} is already in the portal.`, 'certificate');
    await repo.insertCertificate(tx, {
      ...parsed,
      dn_search: parsed.distinguished_name.toLowerCase(),
      organization_id: organizationId,
      description: input.description.trim(),
      owner_member_id: actor.member_id,
      approver_member_id: null,
      date_approved: null,
      date_revoked: null,
      date_expiry_acknowledged: null,
      date_created: now.toISOString(),
    });
    await audit(tx, {
      reason: 'CERTIFICATE_UPLOADED', message: `Uploaded certificate ${parsed.distinguished_name}.`, organization_id: organizationId, member_email: actor.email, now,
      subject: certificateSubject(parsed),
    });
  });
  return toCertificate((await repo.findCertificate(db, parsed.distinguished_name, organizationId))!, target, actor, facts);
}

interface Transition {
  action: Action;
  reason: AuditReason;
  /** Why the state refuses the action, or null when it allows it. */
  refuse(row: CertificateDetailRow, now: Date): string | null;
  change(row: CertificateDetailRow, actor: RequestActor, now: Date): Parameters<typeof repo.updateCertificate>[2] | 'delete';
  message(dn: string): string;
}

const TRANSITIONS = {
  approve: {
    action: 'certificate.approve',
    reason: 'CERTIFICATE_APPROVED',
    refuse: (row, now) => (certificateStatus(row, now).can_approve ? null : row.date_revoked ? 'A revoked certificate cannot be approved.' : 'The certificate is already approved.'),
    change: (_row, actor, now) => ({ date_approved: now.toISOString(), approver_member_id: actor.member_id }),
    message: (dn) => `Approved certificate ${dn}.`,
  },
  revoke: {
    action: 'certificate.revoke',
    reason: 'CERTIFICATE_REVOKED',
    refuse: (row, now) => (certificateStatus(row, now).can_revoke ? null : 'The certificate is already revoked.'),
    change: (_row, _actor, now) => ({ date_revoked: now.toISOString() }),
    message: (dn) => `Revoked certificate ${dn}.`,
  },
  remove: {
    action: 'certificate.remove',
    reason: 'CERTIFICATE_REMOVED',
    refuse: (row, now) => (certificateStatus(row, now).can_remove ? null : 'Only a revoked certificate can be removed; revoke it first.'),
    change: () => 'delete',
    message: (dn) => `Removed certificate ${dn}.`,
  },
  acknowledgeExpiry: {
    action: 'certificate.acknowledgeExpiry',
    reason: 'CERTIFICATE_EXPIRY_ACKNOWLEDGED',
    refuse: (row, now) => {
      if (certificateStatus(row, now).can_acknowledge_expiry) return null;
      if (row.date_expiry_acknowledged) return 'The expiry is already acknowledged.';
      return 'Only an approved certificate that is not revoked can have its expiry acknowledged.';
    },
    change: (_row, _actor, now) => ({ date_expiry_acknowledged: now.toISOString() }),
    message: (dn) => `Acknowledged the expiry of certificate ${dn}.`,
  },
} satisfies Record<string, Transition>;

export type CertificateTransition = keyof typeof TRANSITIONS;

/**
 * Runs one state change. `organizationId` is undefined for POST /api/approve/{dn}, whose path
 * names no organization: the certificate's own organization is then the target.
 */
export async function transition(
  db: Db, actor: RequestActor, name: CertificateTransition, dn: string, organizationId: string | undefined, now: Date,
): Promise<void> {
  const t: Transition = TRANSITIONS[name];
  const found = await repo.findCertificate(db, dn, organizationId);
  // Not found and not readable look the same, so other tenants' DNs are not revealed.
  await authorize(db, actor, t.action, found?.organization_id ?? organizationId ?? '', MISSING);
  if (!found) throw notFound(MISSING);
  await db.transaction().execute(async (tx) => {
    // Lock first, then read again: of concurrent calls one changes the state, the rest see it (409) or find it gone.
    if (!(await lockRow(tx, 'certificates', 'distinguished_name', dn))) throw notFound(MISSING);
    const row = await repo.findCertificate(tx, dn, found.organization_id);
    if (!row) throw notFound(MISSING);
    const refusal = t.refuse(row, now);
    if (refusal) throw conflict(refusal);
    const change = t.change(row, actor, now);
    if (change === 'delete') await repo.deleteCertificate(tx, dn);
    else await repo.updateCertificate(tx, dn, change);
    await audit(tx, { reason: t.reason, message: t.message(dn), organization_id: row.organization_id, member_email: actor.email, now, subject: certificateSubject(row) });
  });
}

export async function updateDescription(db: Db, actor: RequestActor, organizationId: string, dn: string, description: unknown, now: Date) {
  // Who first, then what: a caller who may not edit here learns nothing from the body's checks.
  await authorize(db, actor, 'certificate.editDescription', organizationId, MISSING);
  // The body is checked here, after the roles, with the schema the upload's field uses.
  const parsed = descriptionSchema.safeParse(description);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw badRequest(issue.code === 'invalid_type' ? 'The description must be a JSON string.' : `The description ${issue.message}.`, 'description');
  }
  const text = parsed.data.trim();
  await db.transaction().execute(async (tx) => {
    if (!(await lockRow(tx, 'certificates', 'distinguished_name', dn))) throw notFound(MISSING);
    const row = await repo.findCertificate(tx, dn, organizationId);
    if (!row) throw notFound(MISSING);
    // Saving the same text changes nothing, so it is no change to journal (and a repeated call loses).
    if (row.description === text) throw conflict('The certificate already has this description.');
    await repo.updateCertificate(tx, dn, { description: text });
    await audit(tx, { reason: 'CERTIFICATE_DESCRIPTION_CHANGED', message: `Changed the description of certificate ${dn}.`, organization_id: organizationId, member_email: actor.email, now });
  });
  return getCertificate(db, actor, organizationId, dn);
}

/** A certificate as events name it (common/events.ts). */
export function certificateSubject(row: { distinguished_name: string; serial_number: string; date_not_after: string }): AuditSubject {
  return { type: 'certificate', id: row.distinguished_name, details: { serial_number: row.serial_number, date_not_after: row.date_not_after } };
}
