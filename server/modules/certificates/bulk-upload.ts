/**
 * Bulk certificate upload (issue 12 item 5, docs/decisions.md "Bulk upload"): one text with several
 * PEM blocks, each put through the single upload (service.ts `uploadCertificate`: parse, duplicate
 * DN → 409, stored and journaled in a transaction of its own), and answered per block. A refused
 * block stops nothing: the others are still uploaded, and the answer says which were refused and why.
 */
import type { Db } from '../../db/database';
import type { RequestActor } from '../../auth/actor';
import { pemBlocks, type PemBlock } from '../../../common/pem';
import {
  BULK_UPLOAD_MAX_BYTES, BULK_UPLOAD_MAX_CERTIFICATES, type BulkUploadItem, type BulkUploadResult,
} from '../../../common/schemas/bulk-upload';
import { authorize } from '../../access/authorize';
import { badRequest, HttpError } from '../../errors';
import { databaseConflict } from '../../http/error-handler';
import { parseCertificatePem } from './x509';
import { uploadCertificate } from './service';

export async function bulkUploadCertificates(
  db: Db, actor: RequestActor, organizationId: string, input: { description: string; certificates: string }, now: Date,
): Promise<BulkUploadResult> {
  // Who first, as the single upload: a caller who may not upload here learns nothing from the text's checks.
  await authorize(db, actor, 'certificate.upload', organizationId);
  const blocks = readBlocks(input.certificates);
  const results: BulkUploadItem[] = [];
  // One after the other, in the text's order: a DN twice in one paste is refused the second time.
  for (const [i, block] of blocks.entries()) results.push({ index: i + 1, ...(await uploadBlock(db, actor, organizationId, block, input.description, now)) });
  const uploaded = results.filter((r) => r.outcome === 'uploaded').length;
  return { uploaded, refused: results.length - uploaded, results };
}

/** The blocks of the text, or a 400 for the whole call (nothing stored) when there are none or too many. */
function readBlocks(text: string): PemBlock[] {
  const bytes = Buffer.byteLength(text);
  if (bytes > BULK_UPLOAD_MAX_BYTES) {
    throw badRequest(`The text is ${Math.ceil(bytes / 1024).toLocaleString('en-US')} KiB; at most ${BULK_UPLOAD_MAX_BYTES / 1024} KiB (${BULK_UPLOAD_MAX_CERTIFICATES} certificates) go in one upload.`, 'certificates');
  }
  const blocks = pemBlocks(text);
  if (blocks.length === 0) {
    throw badRequest('Paste one or more certificates in PEM form, each from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE----- (DER or bare base64 is not accepted).', 'certificates');
  }
  if (blocks.length > BULK_UPLOAD_MAX_CERTIFICATES) {
    throw badRequest(`The text holds ${blocks.length} PEM blocks; at most ${BULK_UPLOAD_MAX_CERTIFICATES} go in one upload. Nothing was uploaded.`, 'certificates');
  }
  return blocks;
}

/** One block through the single upload's path; its refusal (a 4xx of that path) becomes the block's result. */
async function uploadBlock(db: Db, actor: RequestActor, organizationId: string, block: PemBlock, description: string, now: Date): Promise<Omit<BulkUploadItem, 'index'>> {
  if (!block.complete) {
    return { distinguished_name: null, outcome: 'refused', message: `The ${block.label} block has no -----END ${block.label}----- line before the next block or the end of the text.` };
  }
  try {
    const created = await uploadCertificate(db, actor, organizationId, { description, certificate: block.text }, now);
    return { distinguished_name: created.distinguished_name, outcome: 'uploaded', message: `Uploaded certificate ${created.distinguished_name}; it waits for approval.` };
  } catch (error) {
    // The unique key taken by another request at the same moment is that request's duplicate, as for one upload.
    const message = error instanceof HttpError && error.statusCode < 500 ? error.message : databaseConflict(error as { code?: unknown });
    if (message === null) throw error;
    return { distinguished_name: subjectOf(block), outcome: 'refused', message };
  }
}

/** The DN of a refused block that is a readable certificate (a duplicate), for the answer; null otherwise. */
function subjectOf(block: PemBlock): string | null {
  try {
    return parseCertificatePem(block.text).distinguished_name;
  } catch {
    return null;
  }
}
