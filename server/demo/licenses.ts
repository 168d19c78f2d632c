/** Demo licenses in every state for Contoso and Northwind (issue "Licenses, license keys, master secret"). */
import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/database';
import type { DemoContext } from './context';
import type { LicenseScope } from '../../common/enums';
import { addCalendarDays, DEFAULT_TIME_ZONE, licenseValidUntil, localTimeZone, startOfDayIn } from '../../common/zones';
import { insertLicense, updateLicense } from '../modules/licenses/repository';

const DAY = 86_400_000;

interface DemoLicense {
  name: string;
  organization: string;
  scope: LicenseScope;
  /** Start of the window in days from today (in the demo's zone), and its length. */
  from: number;
  days: number;
  note?: string;
  approvedDaysAgo?: number;
  rejectedDaysAgo?: number;
  acknowledgedDaysAgo?: number;
  /** The name of the successor a renewal made (listed after this license). */
  renewedAs?: string;
}

const DEMO: DemoLicense[] = [
  { name: 'Contoso Lab Evaluation', organization: 'contoso', scope: 'EVALUATION', from: 0, days: 20, note: 'Trying the new gateway in the Hamburg lab.' },
  { name: 'Contoso Load Test', organization: 'contoso', scope: 'TEST', from: -5, days: 30, rejectedDaysAgo: 4, note: 'Rejected: please use the LAB scope for load tests.' },
  { name: 'Contoso Production 2026', organization: 'contoso', scope: 'PRODUCTION', from: -60, days: 365, approvedDaysAgo: 61 },
  { name: 'Contoso Production Berlin', organization: 'contoso', scope: 'PRODUCTION', from: 14, days: 365, approvedDaysAgo: 2, note: 'Starts with the Berlin go-live.' },
  { name: 'Contoso Lab 2025', organization: 'contoso', scope: 'LAB', from: -100, days: 90, approvedDaysAgo: 101 },
  { name: 'Contoso Test 2025', organization: 'contoso', scope: 'TEST', from: -200, days: 180, approvedDaysAgo: 200, renewedAs: 'Contoso Test 2025 (renewal 1)' },
  { name: 'Contoso Test 2025 (renewal 1)', organization: 'contoso', scope: 'TEST', from: 0, days: 180, note: 'Renewal of Contoso Test 2025.' },
  { name: 'Northwind Edge 2025', organization: 'northwind', scope: 'PRODUCTION', from: -370, days: 365, approvedDaysAgo: 371, renewedAs: 'Northwind Edge 2025 (renewal 1)' },
  { name: 'Northwind Edge 2025 (renewal 1)', organization: 'northwind', scope: 'PRODUCTION', from: -5, days: 365, approvedDaysAgo: 4, note: 'Renewal of Northwind Edge 2025.' },
  { name: 'Northwind Lab 2024', organization: 'northwind', scope: 'LAB', from: -400, days: 30, approvedDaysAgo: 401, acknowledgedDaysAgo: 360 },
  { name: 'Northwind Evaluation', organization: 'northwind', scope: 'EVALUATION', from: 1, days: 20 },
];

/**
 * The demo is seeded where it is looked at (a first run on the viewer's machine, on loopback): its licenses
 * are requested in the portal process's zone (TZ), so "today" lists as today there, and their days are
 * calendar days there, as the web app's requests are.
 */
export async function seedLicenses(tx: Tx, context: DemoContext): Promise<void> {
  const zone = localTimeZone() ?? DEFAULT_TIME_ZONE;
  const today = startOfDayIn(context.now, zone);
  const now = context.now.getTime();
  const approver = context.members['approver@operator.example'];
  const ago = (days: number | undefined) => (days == null ? null : new Date(now - days * DAY).toISOString());
  const ids = new Map(DEMO.map((l) => [l.name, randomUUID()]));
  for (const l of DEMO) {
    const from = addCalendarDays(today, l.from, zone);
    // The version counts the changes the license went through: request, then each decision.
    const changes = [l.approvedDaysAgo, l.rejectedDaysAgo, l.acknowledgedDaysAgo, l.renewedAs].filter((c) => c != null).length;
    await insertLicense(tx, {
      license_id: ids.get(l.name)!,
      license_name: l.name,
      name_search: l.name.toLowerCase(),
      license_scope: l.scope,
      organization_id: context.organizations[l.organization],
      date_valid_from: from,
      days_valid: l.days,
      date_valid_until: licenseValidUntil(from, l.days, zone),
      time_zone: zone,
      note: l.note ?? null,
      date_approved: ago(l.approvedDaysAgo),
      date_rejected: ago(l.rejectedDaysAgo),
      date_expiry_acknowledged: ago(l.acknowledgedDaysAgo),
      approver_member_id: l.approvedDaysAgo != null ? approver : null,
      extended_by_license_id: null,
      version: 1 + changes,
      // Requested a day before its start or its decision, whichever came first.
      date_created: new Date(now + (Math.min(l.from, -(l.approvedDaysAgo ?? 0), -(l.rejectedDaysAgo ?? 0), 0) - 1) * DAY).toISOString(),
    });
  }
  // Successors exist now; link the renewed licenses to them.
  for (const l of DEMO) {
    if (l.renewedAs) await updateLicense(tx, ids.get(l.name)!, { extended_by_license_id: ids.get(l.renewedAs)! });
  }
}
