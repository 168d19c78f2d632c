/**
 * What needs attention (issue 12 item 6, docs/decisions.md "Overview"): the counts of one
 * organization, or of every organization operator staff read, at the request's instant. Reads
 * only; nothing to journal. Authorized as the lists: `read` on the organization, or the policy's
 * `overview.admin` and then the readable organizations, as the admin lists read them.
 */
import type { Db } from '../../db/database';
import type { RequestActor } from '../../auth/actor';
import { authorize, authorizeGlobal } from '../../access/authorize';
import { readableOrganizationIds } from '../../access/tree';
import { EXPIRING_PRESETS } from '../../../common/status-filters';
import type { Overview } from '../../../common/schemas/overview';
import * as certificates from '../certificates/service';
import * as licenses from '../licenses/service';
import { keep, organizationsKey, type Kept } from '../../db/count-cache';
import { epochCache } from '../../db/access-epoch';
import { readDataEpoch } from '../../db/page-cache';
import * as repo from './repository';

const ADMIN_OVERVIEW_REFUSAL = 'Only staff of the operator organization see the overview of all organizations.';

/** The latest journal records shown. */
const JOURNAL_ENTRIES = 10;

export async function organizationOverview(db: Db, actor: RequestActor, organizationId: string, now: Date): Promise<Overview> {
  await authorize(db, actor, 'read', organizationId);
  return overviewOf(db, actor, [organizationId], now, 'organization');
}

export async function adminOverview(db: Db, actor: RequestActor, now: Date): Promise<Overview> {
  authorizeGlobal(actor, 'overview.admin', ADMIN_OVERVIEW_REFUSAL);
  const organizations = await readableOrganizationIds(db, actor);
  // The journals of many organizations cannot be merged cheaply record by record: then the caller's own.
  const merged = organizations === 'all' || organizations.length <= repo.OVERVIEW_TUNING.mergedJournals;
  return overviewOf(db, actor, organizations, now, merged ? 'organizations' : 'own');
}

async function overviewOf(db: Db, actor: RequestActor, scope: repo.Scope, now: Date, journal: Overview['journal']['scope']): Promise<Overview> {
  const journalScope = journal === 'own' ? [actor.organization_id] : scope;
  const [counts, records, organizations] = await Promise.all([
    keptCounts(db, actor, scope, now),
    // Not kept: its newest records are one index seek each, and a kept copy would go with every record written (the journal epoch).
    repo.latestRecords(db, journalScope, JOURNAL_ENTRIES),
    scope === 'all' ? repo.organizationCount(db) : scope.length,
  ]);
  const { certificates: c, licenses: l, waiting } = counts;
  return {
    date_generated: now.toISOString(),
    organizations,
    certificates: c.counts,
    licenses: l.counts,
    expiring: EXPIRING_PRESETS.map((days, i) => ({ days, certificates: c.expiring[i], licenses: l.expiring[i] })),
    pending: waiting,
    expiries_by_month: c.months.map((m, i) => ({ month: m.month, certificates: m.count, licenses: l.months[i].count })),
    journal: { scope: journal, records },
  };
}

type Counts = Awaited<ReturnType<typeof countAll>>;

/**
 * The counts, kept per instance for the organizations (db/count-cache.ts `keep`) until the data
 * epoch moves (any write to certificates or licenses, on any instance) or time alone changes one:
 * the next validity edge, a row entering a window, a new month (repo.nextCountChange). Counting
 * 20,000 certificates of one organization costs about 50 ms on SQLite, all 100,000 about 200 ms.
 */
async function keptCounts(db: Db, actor: RequestActor, scope: repo.Scope, now: Date): Promise<Counts> {
  const epoch = await readDataEpoch(db, actor);
  return keep(epochCache<Kept<Counts>>(db, 'overview'), `overview ${organizationsKey(scope)}`, epoch, now, () => countAll(db, actor, scope, now), repo.nextCountChange(db, now));
}

async function countAll(db: Db, actor: RequestActor, scope: repo.Scope, now: Date) {
  // The pending tasks' own counts (their partial indexes); an empty page, only the total is used.
  const pending = (list: typeof certificates | typeof licenses, kind: 'approval' | 'acknowledgement') =>
    list.pendingPage(db, actor, scope, kind, now, { offset: 0, limit: 0 }).then((page) => page.total);
  const [c, l, certificateApprovals, licenseApprovals, certificateAcknowledgements, licenseAcknowledgements] = await Promise.all([
    repo.certificateCounts(db, scope, now),
    repo.licenseCounts(db, scope, now),
    pending(certificates, 'approval'),
    pending(licenses, 'approval'),
    pending(certificates, 'acknowledgement'),
    pending(licenses, 'acknowledgement'),
  ]);
  return {
    certificates: c,
    licenses: l,
    waiting: {
      certificate_approvals: certificateApprovals,
      license_approvals: licenseApprovals,
      certificate_acknowledgements: certificateAcknowledgements,
      license_acknowledgements: licenseAcknowledgements,
    },
  };
}
