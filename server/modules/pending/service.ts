/**
 * Pending tasks (SPEC.md §7 GET /api/approve, GET /api/acknowledge): approvals and expiry
 * acknowledgements waiting in the organizations where the caller has an applying role, one page
 * of each list with its true total (docs/decisions.md "Pending tasks").
 *
 * The answer is written as JSON from kept pieces: the pages (page-cache.ts) keep their rows already
 * encoded by the response schema, as UTF-8 bytes, so a call that finds them costs no query beyond
 * the epoch and no serializing of 200 objects (that was most of a call's time under load).
 */
import { z } from 'zod';
import type { Actor } from '../../../common/policy';
import { certificateSummarySchema } from '../../../common/schemas/certificate';
import { licenseSchema } from '../../../common/schemas/license';
import type { PendingQuery } from '../../../common/schemas/pending';
import { daysLeft } from '../../../common/status';
import type { Queryable } from '../../db/database';
import { readEpoch } from '../../db/access-epoch';
import { organizationsKey } from '../../db/count-cache';
import { readableOrganizationIds } from '../organizations/tree';
import { listPendingCertificates } from '../certificates/repository';
import { toSummary } from '../certificates/service';
import { listPendingLicenses, type LicenseRow } from '../licenses/repository';
import { toLicense } from '../licenses/service';
import { cachedPage } from './page-cache';
import { nextExpiry } from './repository';

export type PendingKind = 'approval' | 'acknowledgement';

const certificateList = z.array(certificateSummarySchema);
const licenseList = z.array(licenseSchema);

/** JSON of a list, made as the route's response schema would make it (it is not run on text). */
const encode = <S extends z.ZodType>(schema: S, items: z.output<S>) => JSON.stringify(z.encode(schema, items));

/**
 * Kept license rows with their JSON. Of a license, only `days_left` reads the clock (toLicense;
 * pending.test.ts fails if another field starts to), so the JSON is made again only when a row's
 * days left differ from those it was made with.
 */
export class LicensePage {
  private readonly untils: number[];
  private days: number[] | null = null;
  private json = Buffer.alloc(0);

  constructor(
    readonly rows: LicenseRow[],
    readonly total: number,
  ) {
    this.untils = rows.map((row) => Date.parse(row.date_valid_until));
  }

  jsonAt(now: Date): Buffer {
    const days = this.untils.map((until) => daysLeft(until, now));
    if (this.days && days.every((d, i) => d === this.days![i])) return this.json;
    this.json = Buffer.from(encode(licenseList, this.rows.map((row) => toLicense(row, now))));
    this.days = days;
    return this.json;
  }
}

/** The answer of GET /api/approve (approval) or GET /api/acknowledge, as the bytes of its JSON. */
export async function pendingJson(db: Queryable, actor: Actor & { epoch?: number }, kind: PendingKind, query: PendingQuery, now: Date): Promise<Buffer> {
  // The epoch first: a page kept for it was read after it moved there.
  const [organizations, epoch] = await Promise.all([readableOrganizationIds(db, actor), readEpoch(db, 'data_epoch')]);
  const key = (list: string, offset: number) => `${kind} ${list} ${organizationsKey(organizations)} ${offset} ${query.limit}`;
  // Approvals do not read the clock; acknowledgements change when the next row expires.
  const until = (list: 'certificates' | 'licenses') => (kind === 'acknowledgement' ? () => nextExpiry(db, list, now) : undefined);
  const [certificates, licenses] = await Promise.all([
    cachedPage(db, epoch, key('certificates', query.certificatesOffset), now, async () => {
      const { rows, total } = await listPendingCertificates(db, organizations, kind, now, { offset: query.certificatesOffset, limit: query.limit });
      return { json: Buffer.from(encode(certificateList, rows.map(toSummary))), total };
    }, until('certificates')),
    cachedPage(db, epoch, key('licenses', query.licensesOffset), now, async () => {
      const { rows, total } = await listPendingLicenses(db, organizations, kind, now, { offset: query.licensesOffset, limit: query.limit });
      return new LicensePage(rows, total);
    }, until('licenses')),
  ]);
  // Bytes, not text: 100 kB of text would be encoded to UTF-8 again on every call. The whole answer
  // is kept with the certificate page too, while the license bytes are the same: a call allocates nothing.
  const licensesJson = licenses.jsonAt(now);
  const kept = answers.get(certificates);
  if (kept?.licenses === licensesJson) return kept.body;
  const body = Buffer.concat([
    Buffer.from('{"certificates":'), certificates.json,
    Buffer.from(`,"certificates_total":${certificates.total},"licenses":`), licensesJson,
    Buffer.from(`,"licenses_total":${licenses.total}}`),
  ]);
  answers.set(certificates, { licenses: licensesJson, body });
  return body;
}

/** The last answer made with a kept certificate page, and the license bytes in it (gone with the page). */
const answers = new WeakMap<object, { licenses: Buffer; body: Buffer }>();
