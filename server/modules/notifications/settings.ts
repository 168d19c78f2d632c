/**
 * An organization's notification rules (issue 13 item 2): read and saved by those the policy lets
 * manage them (`notifications.manage`), audited; the dispatcher reads them for every event.
 */
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from '../../../common/events';
import type { NotificationSettingsBody, NotificationSettingsView } from '../../../common/schemas/notifications';
import type { Actor } from '../../../common/policy';
import { authorize } from '../../access/authorize';
import { audit } from '../../db/audit';
import type { Db, Queryable } from '../../db/database';
import { lockRow } from '../../db/lock';
import { badRequest } from '../../errors';

/** The domains the organization trusts (its people's addresses): the only ones extra addresses may be at. */
export async function trustedDomainsOf(db: Queryable, organizationId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('organization_domains').select('domain').where('organization_id', '=', organizationId).execute();
  return new Set(rows.map((r) => r.domain));
}

export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** The rules in force for these organizations: their own, or the defaults. */
export async function settingsOf(db: Queryable, organizationIds: string[]): Promise<Map<string, NotificationSettings>> {
  const rows = organizationIds.length === 0 ? [] : await db.selectFrom('notification_settings')
    .select(['organization_id', 'settings']).where('organization_id', 'in', [...new Set(organizationIds)]).execute();
  const own = new Map(rows.map((r) => [r.organization_id, { ...DEFAULT_NOTIFICATION_SETTINGS, ...(JSON.parse(r.settings) as Partial<NotificationSettings>) }]));
  return new Map(organizationIds.map((id) => [id, own.get(id) ?? DEFAULT_NOTIFICATION_SETTINGS]));
}

async function view(db: Queryable, organizationId: string, emailConfigured: boolean): Promise<NotificationSettingsView> {
  const row = await db.selectFrom('notification_settings').select(['settings', 'date_updated']).where('organization_id', '=', organizationId).executeTakeFirst();
  const settings = (await settingsOf(db, [organizationId])).get(organizationId)!;
  return { ...settings, is_default: !row, date_updated: row?.date_updated ?? null, email_configured: emailConfigured };
}

export async function getSettings(db: Db, actor: Actor, organizationId: string, emailConfigured: boolean): Promise<NotificationSettingsView> {
  await authorize(db, actor, 'notifications.manage', organizationId);
  return view(db, organizationId, emailConfigured);
}

export async function saveSettings(
  db: Db, actor: Actor & { email: string }, organizationId: string, input: NotificationSettingsBody, now: Date, emailConfigured: boolean,
): Promise<NotificationSettingsView> {
  await authorize(db, actor, 'notifications.manage', organizationId);
  const settings: NotificationSettings = {
    ...input,
    // Kept in a stable order: the screen shows them so, and equal rules read equal.
    expiry_days: [...input.expiry_days].sort((a, b) => b - a),
    extra_addresses: input.extra_addresses.map((a) => a.trim().toLowerCase()),
  };
  await db.transaction().execute(async (tx) => {
    await lockRow(tx, 'organizations', 'organization_id', organizationId);
    // The vendor's sender must not carry a tenant's text to anyone it names (issue 30): extra addresses are at the
    // organization's own trusted domains, whose people it answers for (docs/decisions.md "Notifications").
    const trusted = await trustedDomainsOf(tx, organizationId);
    const outside = settings.extra_addresses.filter((a) => !trusted.has(domainOf(a)));
    if (outside.length) {
      throw badRequest(
        `Invalid body field 'extra_addresses': ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} not at a domain this organization trusts`
        + ` (${trusted.size ? [...trusted].sort().join(', ') : 'none yet'}); notifications are mailed only within the organization's trusted domains.`,
        'extra_addresses',
      );
    }
    const value = { settings: JSON.stringify(settings), date_updated: now.toISOString() };
    await tx.insertInto('notification_settings').values({ organization_id: organizationId, ...value })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet(value)).execute();
    const message = `Saved notification rules: ${settings.events.length} events, expiry at ${settings.expiry_days.join(', ')} days, `
      + `approvals waiting ${settings.waiting_days} days, to ${settings.recipient_roles.join(', ') || 'no roles'}`
      + `${settings.extra_addresses.length ? ` and ${settings.extra_addresses.join(', ')}` : ''}, email ${settings.email ? 'on' : 'off'}.`;
    await audit(tx, { reason: 'NOTIFICATION_SETTINGS_SAVED', message, organization_id: organizationId, member_email: actor.email, now });
  });
  return view(db, organizationId, emailConfigured);
}
