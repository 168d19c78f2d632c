/**
 * A person's own mail preference for approval work (issue 34 item 1): one mail per request, as the operator's
 * rules send them, or one digest a day (digest.ts). Only those the policy lets settle approvals
 * (`approval.mail`: the operator's APPROVER and SUPERVISOR, never a key) have approval work to be mailed about, so only they
 * read and save it. Saving is journaled in the person's own organization, like any change of how it is told.
 */
import type { Actor } from '../../../common/policy';
import { authorizeGlobal } from '../../access/authorize';
import { PREFERENCES_REFUSAL } from '../../access/target-guard';
import { DIGEST_HOUR, type MailPreferences, type MailPreferencesBody } from '../../../common/schemas/notifications';
import { DEFAULT_TIME_ZONE, timeZoneName } from '../../../common/zones';
import { audit } from '../../db/audit';
import type { Db, Queryable } from '../../db/database';
import { badRequest } from '../../errors';

type PreferenceActor = Actor & { email: string };

const mayChoose = (actor: Actor) => authorizeGlobal(actor, 'approval.mail', PREFERENCES_REFUSAL);

async function view(db: Queryable, memberId: string, emailConfigured: boolean): Promise<MailPreferences> {
  const row = await db.selectFrom('mail_preferences').select(['approval_mail', 'time_zone']).where('member_id', '=', memberId).executeTakeFirst();
  return { approval_mail: row?.approval_mail ?? 'each', time_zone: row?.time_zone ?? DEFAULT_TIME_ZONE, is_default: !row, email_configured: emailConfigured };
}

export async function getPreferences(db: Db, actor: PreferenceActor, emailConfigured: boolean): Promise<MailPreferences> {
  mayChoose(actor);
  return view(db, actor.member_id, emailConfigured);
}

export async function savePreferences(db: Db, actor: PreferenceActor, input: MailPreferencesBody, now: Date, emailConfigured: boolean): Promise<MailPreferences> {
  mayChoose(actor);
  const zone = timeZoneName(input.time_zone);
  if (!zone) throw badRequest(`Invalid body field 'time_zone': '${input.time_zone}' is not a time zone (an IANA name such as Europe/Berlin, or UTC).`, 'time_zone');
  const value = { approval_mail: input.approval_mail, time_zone: zone, date_updated: now.toISOString() };
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('mail_preferences').values({ member_id: actor.member_id, ...value })
      .onConflict((oc) => oc.column('member_id').doUpdateSet(value)).execute();
    const message = input.approval_mail === 'digest'
      ? `${actor.email} chose one mail a day about approval work, at ${String(DIGEST_HOUR).padStart(2, '0')}:00 ${zone}.`
      : `${actor.email} chose one mail per request waiting for approval.`;
    await audit(tx, { reason: 'MAIL_PREFERENCES_SAVED', message, organization_id: actor.organization_id, member_email: actor.email, now });
  });
  return view(db, actor.member_id, emailConfigured);
}

/** The members among these who chose the digest: their mails about approval work wait for it. */
export async function digestChoosers(db: Queryable, memberIds: string[]): Promise<Set<string>> {
  if (memberIds.length === 0) return new Set();
  const rows = await db.selectFrom('mail_preferences').select('member_id')
    .where('member_id', 'in', memberIds).where('approval_mail', '=', 'digest').execute();
  return new Set(rows.map((r) => r.member_id));
}
