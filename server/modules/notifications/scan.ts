/**
 * The time-driven events (issue 13 item 1): a certificate or license that comes within one of its
 * organization's expiry thresholds, one that has expired, one whose approval has waited too long.
 *
 * Each scan looks at the interval since the last one (kept in `scan_state`): a threshold of T days
 * is crossed by the rows whose end lies in (last + T, now + T]. So a scan reads only the rows that
 * crossed something since the last, through the end-of-validity and creation indexes, not every
 * row. Each event made also writes its mark (object, kind, threshold, end); the mark's key refuses
 * a second one, so an event is made once whatever the restarts, a clock set back or two instances
 * scanning together (they also take turns on PostgreSQL: an advisory lock for the transaction).
 * A row approved when already inside a threshold gets the next smaller threshold's event when it
 * crosses that: nothing is told late. The first scan ever starts the interval at its own instant.
 */
import { sql } from 'kysely';
import { formatUtcDateTime } from '../../../common/dates';
import { DEFAULT_NOTIFICATION_SETTINGS, type EventType, type NotificationSettings } from '../../../common/events';
import { recordEvent, type AuditSubject } from '../../db/audit';
import { isPostgres, type Db, type Tx } from '../../db/database';
import { certificateSubject } from '../certificates/service';
import { licenseSubject } from '../licenses/service';
import { roleExpired, roleExpiring } from './role-ends';
import { supportExpired } from '../support-access/expiry';

const DAY = 86_400_000;

type Kind = 'expiring' | 'expired' | 'waiting';
type SubjectKind = 'certificate' | 'license';

interface Found {
  id: string;
  organization_id: string;
  date_end: string;
  subject: AuditSubject;
}

/** The rows of one kind whose instant (end of validity, or creation for waiting) lies in (from, to], in these organizations. */
async function crossed(tx: Tx, subject: SubjectKind, kind: Kind, from: string, to: string, now: string, organizations: Organizations): Promise<Found[]> {
  const inOrganizations = organizations.only
    ? sql`and organization_id in (${sql.join(organizations.only)})`
    : organizations.except.length ? sql`and organization_id not in (${sql.join(organizations.except)})` : sql``;
  if (subject === 'certificate') {
    const column = kind === 'waiting' ? sql.ref('date_created') : sql.ref('date_not_after');
    const state = kind === 'waiting' ? sql`date_approved is null and date_revoked is null` : sql`date_approved is not null and date_revoked is null`;
    // Still valid for "expiring": a clock that jumps past the end makes "expired" instead.
    const valid = kind === 'expiring' ? sql`and date_not_after > ${now}` : sql``;
    const { rows } = await sql<{ distinguished_name: string; organization_id: string; serial_number: string; date_not_after: string }>`
      select distinguished_name, organization_id, serial_number, date_not_after from certificates
      where ${column} > ${from} and ${column} <= ${to} and ${state} ${valid} ${inOrganizations}`.execute(tx);
    return rows.map((r) => ({ id: r.distinguished_name, organization_id: r.organization_id, date_end: r.date_not_after, subject: certificateSubject(r) }));
  }
  const column = kind === 'waiting' ? sql.ref('date_created') : sql.ref('date_valid_until');
  // A renewed license lives on in its successor: its own end tells nobody anything.
  const state = kind === 'waiting'
    ? sql`date_approved is null and date_rejected is null`
    : sql`date_approved is not null and date_rejected is null and extended_by_license_id is null`;
  const valid = kind === 'expiring' ? sql`and date_valid_until > ${now}` : sql``;
  const { rows } = await sql<{ license_id: string; organization_id: string; license_name: string; date_valid_until: string }>`
    select license_id, organization_id, license_name, date_valid_until from licenses
    where ${column} > ${from} and ${column} <= ${to} and ${state} ${valid} ${inOrganizations}`.execute(tx);
  return rows.map((r) => ({ id: r.license_id, organization_id: r.organization_id, date_end: r.date_valid_until, subject: licenseSubject(r) }));
}

/** Which organizations a threshold applies to: a list of them, or all but those with rules of their own. */
type Organizations = { only: string[]; except?: never } | { only?: never; except: string[] };

/** Per threshold in days, the organizations it applies to. */
function thresholds(custom: Map<string, NotificationSettings>, of: (s: NotificationSettings) => number[]): Map<number, Organizations> {
  const byDays = new Map<number, string[]>();
  for (const [id, settings] of custom) for (const days of of(settings)) byDays.set(days, [...(byDays.get(days) ?? []), id]);
  const result = new Map<number, Organizations>([...byDays].map(([days, only]) => [days, { only }]));
  for (const days of of(DEFAULT_NOTIFICATION_SETTINGS)) {
    const except = [...custom.keys()];
    const only = byDays.get(days);
    // Both the defaults and some organizations' own rules have it: all but the custom ones that lack it.
    result.set(days, only ? { except: except.filter((id) => !only.includes(id)) } : { except });
  }
  return result;
}

const EVENT: Record<SubjectKind, Record<Kind, EventType>> = {
  certificate: { expiring: 'certificate.expiring', expired: 'certificate.expired', waiting: 'certificate.approval_waiting' },
  license: { expiring: 'license.expiring', expired: 'license.expired', waiting: 'license.approval_waiting' },
};

/**
 * The event's text, for the notice, the mail and the webhook alike: its instant zone-explicit (23-NOV-2026 11:47:59
 * UTC, SPEC.md §9's date-time), which the screens show in the viewer's zone (localizeTimesInText).
 */
function message(subject: SubjectKind, kind: Kind, found: Found, days: number): string {
  const name = subject === 'certificate' ? `Certificate ${found.id}` : `License ${String(found.subject.details?.license_name ?? found.id)}`;
  const end = formatUtcDateTime(found.date_end);
  if (kind === 'expired') return `${name} expired on ${end}.`;
  if (kind === 'expiring') return `${name} expires in ${days} day${days === 1 ? '' : 's'}, on ${end}.`;
  return `${name} has waited ${days} day${days === 1 ? '' : 's'} for approval.`;
}

/** Days before its expiry at which an API key is told about (issue 32: 14, 7 and 1), whatever the organization's rules. */
const KEY_EXPIRY_DAYS = [14, 7, 1];

/** "API key expires in T days" for the keys, not revoked, whose expiry lies in (from + T, now + T] and after now. */
async function scanKeys(tx: Tx, from: number, now: Date): Promise<number> {
  let made = 0;
  for (const days of KEY_EXPIRY_DAYS) {
    const keys = await tx.selectFrom('api_keys').select(['api_key_id', 'organization_id', 'name', 'date_expires'])
      .where('date_expires', '>', new Date(from + days * DAY).toISOString()).where('date_expires', '<=', new Date(now.getTime() + days * DAY).toISOString())
      .where('date_expires', '>', now.toISOString()).where('date_revoked', 'is', null).execute();
    for (const key of keys) {
      const mark = await tx.insertInto('event_marks')
        .values({ subject_type: 'api_key', subject_id: key.api_key_id, kind: 'expiring', days, date_end: key.date_expires, date_created: now.toISOString() })
        .onConflict((oc) => oc.doNothing()).executeTakeFirst();
      if (Number(mark.numInsertedOrUpdatedRows ?? 0) === 0) continue;
      await recordEvent(tx, {
        type: 'api_key.expiring', organization_id: key.organization_id, now,
        subject: { type: 'api_key', id: key.api_key_id, details: { name: key.name, date_expires: key.date_expires } },
        data: { message: `API key '${key.name}' expires in ${days} day${days === 1 ? '' : 's'}, on ${key.date_expires}.`, days, actor_email: null },
      });
      made++;
    }
  }
  return made;
}

/** Makes the time-driven events due at `now`; answers how many it made. */
export async function scanTime(db: Db, now: Date): Promise<number> {
  return db.transaction().execute(async (tx) => {
    if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtext('customer-portal:scan'))`.execute(tx);
    const last = await tx.selectFrom('scan_state').select('date_scanned').where('id', '=', 1).executeTakeFirst();
    const at = now.toISOString();
    await tx.insertInto('scan_state').values({ id: 1, date_scanned: at }).onConflict((oc) => oc.column('id').doUpdateSet({ date_scanned: at })).execute();
    // Roles whose end has come are removed whatever the interval: the delete itself says whether it was done.
    const ended = (await roleExpired(tx, now)) + (await supportExpired(tx, now));
    // The first scan, or a clock set back: the interval starts now (the marks keep what was told).
    if (!last || last.date_scanned >= at) return ended;
    const from = Date.parse(last.date_scanned);
    const custom = new Map((await tx.selectFrom('notification_settings').select(['organization_id', 'settings']).execute())
      .map((r) => [r.organization_id, { ...DEFAULT_NOTIFICATION_SETTINGS, ...(JSON.parse(r.settings) as Partial<NotificationSettings>) }]));
    const plan: Array<[Kind, Map<number, Organizations>]> = [
      ['expiring', thresholds(custom, (s) => s.expiry_days)],
      ['expired', new Map([[0, { except: [] }]])],
      ['waiting', thresholds(custom, (s) => [s.waiting_days])],
    ];
    let made = ended + (await roleExpiring(tx, from, now));
    for (const subject of ['certificate', 'license'] as const) {
      for (const [kind, byDays] of plan) {
        for (const [days, organizations] of byDays) {
          // Expiring: ends in (from + T, now + T]; expired: ends in (from, now]; waiting: created in (from − T, now − T].
          const shift = (kind === 'waiting' ? -days : days) * DAY;
          const rows = await crossed(tx, subject, kind, new Date(from + shift).toISOString(), new Date(now.getTime() + shift).toISOString(), at, organizations);
          for (const found of rows) {
            const mark = await tx.insertInto('event_marks')
              .values({ subject_type: subject, subject_id: found.id, kind, days, date_end: found.date_end, date_created: at })
              .onConflict((oc) => oc.doNothing()).executeTakeFirst();
            if (Number(mark.numInsertedOrUpdatedRows ?? 0) === 0) continue;
            await recordEvent(tx, {
              type: EVENT[subject][kind], organization_id: found.organization_id, subject: found.subject, now,
              data: { message: message(subject, kind, found, days), days, actor_email: null },
            });
            made++;
          }
        }
      }
    }
    return made + (await scanKeys(tx, from, now));
  });
}
