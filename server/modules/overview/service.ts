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
import { keptFor } from '../../db/kept';
import { readGlobalVersion } from '../../db/versions';
import * as repo from './repository';

const ADMIN_OVERVIEW_REFUSAL = 'Only staff of the operator organization see the overview of all organizations.';

/** The latest journal records shown. */
const JOURNAL_ENTRIES = 10;

/** `until`: told the next instant the answer changes by time alone (the route keeps it until then). */
export async function organizationOverview(db: Db, actor: RequestActor, organizationId: string, now: Date, until: (at: number) => void): Promise<Overview> {
  await authorize(db, actor, 'read', organizationId);
  return overviewOf(db, actor, [organizationId], now, 'organization', until);
}

export async function adminOverview(db: Db, actor: RequestActor, now: Date): Promise<Overview> {
  authorizeGlobal(actor, 'overview.admin', ADMIN_OVERVIEW_REFUSAL);
  const organizations = await readableOrganizationIds(db, actor);
  // The journals of many organizations cannot be merged cheaply record by record: then the caller's own.
  const merged = organizations === 'all' || organizations.length <= repo.OVERVIEW_TUNING.mergedJournals;
  return overviewOf(db, actor, organizations, now, merged ? 'organizations' : 'own', () => {});
}

async function overviewOf(
  db: Db, actor: RequestActor, scope: repo.Scope, now: Date, journal: Overview['journal']['scope'], until: (at: number) => void,
): Promise<Overview> {
  const journalScope = journal === 'own' ? [actor.organization_id] : scope;
  const [counts, records, organizations] = await Promise.all([
    keptCounts(db, actor, scope, now, until),
    // Not kept with the counts: its newest records are one index seek each.
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
 * The counts. One organization's answer is kept whole (routes.ts, http/kept-answers.ts) until the next instant a
 * count changes by time alone (`until`). Those of many organizations (the admin overview: counting 100,000
 * certificates costs about 200 ms on SQLite) are kept here until any organization's data changes (the global
 * version) or that instant.
 */
async function keptCounts(db: Db, actor: RequestActor, scope: repo.Scope, now: Date, until: (at: number) => void): Promise<Counts> {
  const next = repo.nextCountChange(db, scope, now);
  if (scope !== 'all' && scope.length === 1) {
    const [counts, at] = await Promise.all([countAll(db, scope, now), next()]);
    until(at);
    return counts;
  }
  // The counts depend on the organizations only (the actor's roles chose them).
  const key = scope === 'all' ? 'all' : [...scope].sort().join(',');
  return keptFor<Counts>(db, 'overview', { entries: 100 }).through(key, await readGlobalVersion(db), now.getTime(), () => countAll(db, scope, now), next);
}

/** The counts of both tables; the Pending Tasks' totals among them (their conditions are db/status-sql.ts's). */
async function countAll(db: Db, scope: repo.Scope, now: Date) {
  const { certificates: c, licenses: l } = await repo.overviewCounts(db, scope, now);
  return {
    certificates: c,
    licenses: l,
    waiting: {
      certificate_approvals: c.counts.not_approved,
      license_approvals: l.counts.not_approved,
      certificate_acknowledgements: c.pendingAcknowledgements,
      license_acknowledgements: l.pendingAcknowledgements,
    },
  };
}
