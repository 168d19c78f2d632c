/** What the Piston Resources page says about the statistics as a whole. */
import type { PistonStatistics } from '../../../../common/schemas/piston';

export const EVENTS = ['upload', 'approve', 'revoke', 'valid', 'expired'] as const;
export type PistonEvent = (typeof EVENTS)[number];

export type OrganizationStatistics = PistonStatistics['organizations'][number];
export type LatestCertificate = NonNullable<OrganizationStatistics['latest'][PistonEvent]>;

export interface LatestOf extends LatestCertificate {
  organization_name: string;
  event: PistonEvent;
}

const time = (value: string) => new Date(value).getTime();

/** The most recent certificate of one event (or of all events) across the organizations. */
export function latestOf(statistics: PistonStatistics, events: readonly PistonEvent[] = EVENTS): LatestOf | null {
  let best: LatestOf | null = null;
  for (const organization of statistics.organizations) {
    for (const event of events) {
      const latest = organization.latest[event];
      if (latest && (!best || time(latest.date_modified) > time(best.date_modified))) {
        best = { ...latest, organization_name: organization.organization_name, event };
      }
    }
  }
  return best;
}

/** Organizations with at least one certificate inside its validity window now. */
export const organizationsWithValid = (statistics: PistonStatistics) =>
  statistics.organizations.filter((o) => o.latest.valid !== null).length;

export const pendingApprovals = (statistics: PistonStatistics) =>
  statistics.organizations.reduce((sum, o) => sum + o.cert_unapproved, 0);

/** How an event reads in a sentence: "upload of CN=…". */
export const EVENT_NOUNS: Record<PistonEvent, string> = {
  upload: 'upload',
  approve: 'approval',
  revoke: 'revocation',
  valid: 'start of validity',
  expired: 'expiry',
};
