/**
 * What is measured and what it must reach: issue 10, "Targets", on this 2-core machine.
 * Pairs are [SQLite, PostgreSQL]; PostgreSQL shares the two cores with the portal, hence its
 * lower ratios. Every loaded run also has to keep the event-loop delay p99 and the RSS in bounds.
 */
import type { DatasetFacts } from './dataset';

export type Engine = 'sqlite' | 'postgres';
type PerEngine = readonly [sqlite: number, postgres: number];

export interface Target {
  id: string;
  label: string;
  path: string;
  /**
   * Whose token: a person's, the download gateway's API token (what polls the exports in production), or an
   * organization API key acting as the supervisor (issue 32).
   */
  as: 'supervisor' | 'devops' | 'gateway' | 'key';
  /** Ask once for the ETag and send it as If-None-Match: the answers are 304s. */
  conditional?: boolean;
  /** At 50 connections: throughput as a share of bare Fastify's (0.2 = 20 %) and p99 in ms. */
  ratio?: PerEngine;
  p99Ms?: PerEngine;
  /** One client at a time: p99 in ms. */
  singleP99Ms?: PerEngine;
  /** The id of a target whose CPU per answer this one must not pass (by more than the noise, CPU_NOISE). */
  costsNoMoreThan?: string;
}

/** Two runs of the same work differ by this share of CPU per answer on a busy machine: within it is "no more". */
export const CPU_NOISE = 0.1;

/** rssWithChildrenMb: the portal and its child processes (the archive builder), issue 29. */
export const LIMITS = { eventLoopP99Ms: 50, rssMb: 250, rssWithChildrenMb: 400, coldStartMs: 2_000, rebuildMs: 1_000 } as const;

export function pick(value: PerEngine | undefined, engine: Engine): number | undefined {
  return value?.[engine === 'sqlite' ? 0 : 1];
}

export function buildTargets(facts: DatasetFacts): Target[] {
  const large = `/api/organizations/${facts.largeOrganizationId}`;
  const page = 'offset=0&limit=100';
  const list = { as: 'supervisor' as const, ratio: [0.15, 0.08] as const, p99Ms: [40, 60] as const };
  const certificates = { as: 'supervisor' as const, ratio: [0.2, 0.1] as const, p99Ms: [25, 40] as const };
  // The journal offsets of issue 10 are for 500,000 records; smaller data sets scale them down.
  const scale = Math.min(1, facts.largeJournal / 500_000);
  const journal = [0, 10_000, 100_000, 400_000].map((offset) => Math.round(offset * scale));
  return [
    { id: 'one-row', label: 'one organization (reference: an authenticated one-row GET)', path: large, as: 'supervisor' },
    // Issue 32: a key's sign-in and its limit (a lease from the database now and then) cost no more than a person's token.
    { id: 'one-row-key', label: 'same, with an organization API key instead of a person\'s token', path: large, as: 'key', costsNoMoreThan: 'one-row' },
    { id: 'certs-default', label: 'certificates of the large organization, default query', path: `${large}/certificates?${page}`, ...certificates },
    {
      id: 'certs-filtered', label: `same, name "${facts.certificateFilter}" + hide expired`,
      path: `${large}/certificates?name=${encodeURIComponent(facts.certificateFilter)}&hideExpired=true&${page}`, ...certificates,
    },
    { id: 'licenses-org', label: 'licenses of the large organization', path: `${large}/licenses?${page}`, ...list },
    { id: 'members-org', label: 'members of the large organization', path: `${large}/members?${page}`, ...list },
    { id: 'organizations', label: 'organizations', path: `/api/organizations?${page}`, ...list },
    { id: 'admin-certs', label: 'admin list: certificates of all organizations', path: `/api/certificates?${page}`, ...list },
    { id: 'admin-licenses', label: 'admin list: licenses of all organizations', path: `/api/licenses?${page}`, ...list },
    { id: 'admin-members', label: 'admin list: members of all organizations', path: `/api/members?${page}`, ...list },
    // Sorted variants (issue 12): the same targets as the lists in their usual order.
    { id: 'certs-sorted', label: 'certificates of the large organization by valid until, latest first', path: `${large}/certificates?${page}&sort=-date_not_after`, ...certificates },
    { id: 'licenses-sorted', label: 'licenses of the large organization by valid until', path: `${large}/licenses?${page}&sort=date_valid_until`, ...list },
    { id: 'members-sorted', label: 'members of the large organization by email', path: `${large}/members?${page}&sort=member_email`, ...list },
    { id: 'admin-certs-sorted', label: 'admin list: certificates of all organizations by valid until', path: `/api/certificates?${page}&sort=date_not_after`, ...list },
    // Filtered variants (issue 12 item 2): status chips and "expiring within", as the lists' More filters send them.
    { id: 'certs-chips', label: 'certificates of the large organization, chips Approved + Expired', path: `${large}/certificates?status=approved,expired&${page}`, ...certificates },
    { id: 'certs-expiring', label: 'certificates of the large organization, Approved, expiring within 30 days', path: `${large}/certificates?status=approved&expiringWithin=30&${page}`, ...certificates },
    { id: 'licenses-expiring', label: 'licenses of the large organization, Valid, expiring within 30 days', path: `${large}/licenses?status=valid&expiringWithin=30&${page}`, ...list },
    { id: 'admin-certs-expiring', label: 'admin list: certificates of all organizations expiring within 30 days', path: `/api/certificates?expiringWithin=30&${page}`, ...list },
    ...journal.map((offset) => ({
      id: `journal-${offset}`, label: `journal of the large organization, offset ${offset.toLocaleString('en')}`,
      path: `${large}/auditrecords?offset=${offset}&limit=100`, as: 'supervisor' as const,
      ratio: [0.15, 0.08] as const, singleP99Ms: [10, 10] as const,
    })),
    {
      id: 'journal-oldest', label: 'journal of the large organization, oldest first, offset 0',
      path: `${large}/auditrecords?offset=0&limit=100&sort=date_created`, as: 'supervisor' as const,
      ratio: [0.15, 0.08] as const, singleP99Ms: [10, 10] as const,
    },
    {
      id: 'journal-filter', label: `journal with the text filter "${facts.journalFilter}"`,
      path: `${large}/auditrecords?filter=${encodeURIComponent(facts.journalFilter)}&offset=0&limit=100`, as: 'supervisor', singleP99Ms: [50, 50],
    },
    { id: 'pending-approvals', label: 'pending approvals (GET /api/approve)', path: '/api/approve', as: 'supervisor', p99Ms: [25, 25] },
    { id: 'pending-acks', label: 'pending acknowledgements (GET /api/acknowledge)', path: '/api/acknowledge', as: 'supervisor', p99Ms: [25, 25] },
    { id: 'routes-304', label: 'routes.hcl with a matching If-None-Match (304)', path: '/api/piston/routes.hcl', as: 'gateway', conditional: true, ratio: [0.7, 0.5] },
    { id: 'certs-304', label: 'certs archive with a matching If-None-Match (304)', path: '/api/piston/certs', as: 'gateway', conditional: true, ratio: [0.7, 0.5] },
  ];
}
