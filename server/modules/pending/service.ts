/**
 * Pending tasks (SPEC.md §7 GET /api/approve, GET /api/acknowledge): approvals and expiry
 * acknowledgements waiting in the organizations where the caller has an applying role, one page
 * of each list with its true total (docs/decisions.md "Pending tasks").
 *
 * The answer is written as JSON from kept pieces: the pages (db/page-cache.ts) keep their rows already
 * encoded by the response schema, as UTF-8 bytes, so a call that finds them costs no query beyond
 * the epoch and no serializing of 200 objects (that was most of a call's time under load).
 */
import type { Actor } from '../../../common/policy';
import type { PendingQuery } from '../../../common/schemas/pending';
import type { Queryable } from '../../db/database';
import { organizationsKey } from '../../db/count-cache';
import { cachedPage, readDataEpoch, type JsonPage } from '../../db/page-cache';
import { readableOrganizationIds, rolesKey } from '../../access/tree';
import * as certificates from '../certificates/service';
import * as licenses from '../licenses/service';
import { nextExpiry } from './repository';

export type PendingKind = 'approval' | 'acknowledgement';

/** The answer of GET /api/approve (approval) or GET /api/acknowledge, as the bytes of its JSON. */
export async function pendingJson(db: Queryable, actor: Actor & { epoch?: number; data_epoch?: number }, kind: PendingKind, query: PendingQuery, now: Date): Promise<Buffer> {
  // The epoch first: a page kept for it was read after it moved there.
  const [organizations, epoch] = await Promise.all([readableOrganizationIds(db, actor), readDataEpoch(db, actor)]);
  // The rows' abilities are the same for everyone with the caller's assignments.
  const key = (list: string, offset: number, sort = '') => `${kind} ${list} ${organizationsKey(organizations)} ${rolesKey(actor)} ${offset} ${query.limit} ${sort}`;
  // Approvals do not read the clock; acknowledgements change when the next row expires.
  const until = (list: 'certificates' | 'licenses') => (kind === 'acknowledgement' ? () => nextExpiry(db, list, now) : undefined);
  const [certificatePage, licensePage] = await Promise.all([
    cachedPage(db, epoch, key('certificates', query.certificatesOffset, query.certificatesSort), now, () =>
      certificates.pendingPage(db, actor, organizations, kind, now, { offset: query.certificatesOffset, limit: query.limit, sort: query.certificatesSort }), until('certificates')),
    cachedPage(db, epoch, key('licenses', query.licensesOffset, query.licensesSort), now, () =>
      licenses.pendingPage(db, actor, organizations, kind, now, { offset: query.licensesOffset, limit: query.limit, sort: query.licensesSort }), until('licenses')),
  ]);
  // Bytes, not text: 100 kB of text would be encoded to UTF-8 again on every call. The whole answer
  // is kept with the certificate page too, while the license page is the same: a call allocates nothing.
  const kept = answers.get(certificatePage);
  if (kept?.licenses === licensePage) return kept.body;
  const body = Buffer.concat([
    Buffer.from('{"certificates":'), certificatePage.json,
    Buffer.from(`,"certificates_total":${certificatePage.total},"licenses":`), licensePage.json,
    Buffer.from(`,"licenses_total":${licensePage.total}}`),
  ]);
  answers.set(certificatePage, { licenses: licensePage, body });
  return body;
}

/** The last answer made with a kept certificate page, and the license page in it (gone with the page). */
const answers = new WeakMap<JsonPage, { licenses: JsonPage; body: Buffer }>();
