/**
 * Vendor support access with the customer's consent (issue 33 item 2, docs/decisions.md "Support access"). The
 * policy (common/policy.ts canSupport) decides who asks, who consents, who ends; this checks the input, moves a
 * request through its states by updates conditional on the state (one winner of two decisions at once) and journals
 * each change in the customer's journal (with its event) and in the operator's, in the change's transaction.
 */
import { BREAK_GLASS_MAX_HOURS, SUPPORT_REQUEST_WAITS_HOURS, supportRequestLapsesAt, can, canSupport, supportAbilities, supportRolesOf, type SupportAction, type TargetOrganization } from '../../../common/policy';
import { formatUtcDateTime } from '../../../common/dates';
import type {
  ActiveSupport, SupportRequest, SupportRequestBody, SupportSettings,
} from '../../../common/schemas/support-access';
import type { RequestActor } from '../../auth/actor';
import { loadTarget } from '../../access/tree';
import { audit, type AuditReason, type AuditSubject } from '../../db/audit';
import type { Db, Queryable } from '../../db/database';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../errors';
import * as repo from './repository';
import type { SupportRow } from './repository';

const HOUR = 3_600_000;
const MISSING_ORGANIZATION = 'Organization not found.';

/**
 * The state as it stands at `at`: an approved access whose end has come, and a request nobody decided within
 * SUPPORT_REQUEST_WAITS_HOURS, are expired, marked by the scan or not yet.
 */
function stateAt(row: SupportRow, at: number): SupportRequest['state'] {
  if (row.state === 'APPROVED' && row.date_until && Date.parse(row.date_until) <= at) return 'EXPIRED';
  if (row.state === 'REQUESTED' && Date.parse(supportRequestLapsesAt(row.date_requested)) <= at) return 'EXPIRED';
  return row.state;
}

function shown(actor: RequestActor, row: SupportRow, target: TargetOrganization, at: number): SupportRequest {
  const state = stateAt(row, at);
  const decides = canSupport(actor, 'decide', target) && row.member_id !== actor.member_id;
  const abilities: SupportRequest['abilities'] = [];
  if (state === 'REQUESTED' && decides) abilities.push('approve', 'deny');
  if ((state === 'REQUESTED' || state === 'APPROVED') && canSupport(actor, 'end', target, row.member_id)) abilities.push('end');
  return {
    request_id: Number(row.request_id), organization_id: row.organization_id, organization_name: row.organization_name,
    requester: { member_id: row.member_id, name: row.requester_name, email: row.requester_email },
    role: row.role, reason: row.reason, hours: Number(row.hours), break_glass: Number(row.break_glass) === 1, state,
    date_requested: row.date_requested, date_decided: row.date_decided, decided_by: row.decided_by, date_until: row.date_until,
    date_ended: row.date_ended, ended_by: row.ended_by, abilities,
  };
}

/**
 * The target, when the policy lets the actor take `action` there: else 403 where it reads the organization, 404
 * where it does not (ids of other tenants reveal nothing), as access/authorize.ts answers.
 */
async function authorizeSupport(db: Db, actor: RequestActor, action: SupportAction, organizationId: string, requester?: string): Promise<TargetOrganization> {
  const target = await loadTarget(db, organizationId, actor).catch((error: unknown) => {
    throw error instanceof HttpError && error.statusCode === 404 ? notFound(MISSING_ORGANIZATION) : error;
  });
  if (canSupport(actor, action, target, requester)) return target;
  if (!can(actor, 'read', target) && !canSupport(actor, 'list', target)) throw notFound(MISSING_ORGANIZATION);
  throw forbidden(REFUSALS[action]);
}

const REFUSALS: Record<SupportAction, string> = {
  request: 'Only the operator\'s supervisors and DevOps may ask for support access.',
  breakGlass: 'Only the operator\'s supervisors may take break-glass access.',
  decide: 'Only the organization\'s own administrators (or its partner\'s) may approve or deny support access.',
  end: 'Only the organization\'s administrators and the support person may end this access.',
  list: 'Your roles do not allow you to see this organization\'s support access.',
};

const subjectOf = (row: SupportRow): AuditSubject => ({
  type: 'support_access', id: String(row.request_id), details: {
    organization_name: row.organization_name, requester_member_id: row.member_id, requester_email: row.requester_email,
    role: row.role, break_glass: Number(row.break_glass) === 1, date_until: row.date_until,
  },
});

/** The request's name in the journal: "#N (name, ROLE)", marked when it is a break glass. */
const named = (row: SupportRow) => `support access #${row.request_id}${Number(row.break_glass) ? ' (BREAK GLASS)' : ''} of ${row.requester_name} (${row.requester_email}) to ${row.organization_name} as ${row.role}`;

/** Journals one change of a request on both sides: the customer's record (with the event) and the operator's. */
export async function journalBoth(tx: Queryable, reason: AuditReason, row: SupportRow, message: string, by: string | null, now: Date): Promise<void> {
  await audit(tx, { reason, message, organization_id: row.organization_id, member_email: by, now, subject: subjectOf(row) });
  if (row.requester_organization_id !== row.organization_id) {
    await audit(tx, { reason, message, organization_id: row.requester_organization_id, member_email: by, now, subject: subjectOf(row), echo: true });
  }
}

/** GET /organizations/{id}/support-access */
export async function listRequests(db: Db, actor: RequestActor, organizationId: string, now: Date) {
  const target = await authorizeSupport(db, actor, 'list', organizationId);
  const [rows, settings] = await Promise.all([repo.listRequests(db, organizationId), repo.settingsOf(db, organizationId)]);
  // The vendor's support staff see their own requests here; the customer's administrators see all of them.
  const visible = canSupport(actor, 'decide', target) ? rows : rows.filter((r) => r.member_id === actor.member_id);
  return {
    items: visible.map((r) => shown(actor, r, target, now.getTime())), settings,
    abilities: supportAbilities(actor, target), requestable_roles: supportRolesOf(actor),
  };
}

/** GET /organizations/{id}/support-access/active: the accesses that run now, for the banners of everyone who reads it. */
export async function activeAccesses(db: Db, actor: RequestActor, organizationId: string, now: Date): Promise<{ items: ActiveSupport[] }> {
  const target = await loadTarget(db, organizationId, actor).catch((error: unknown) => {
    throw error instanceof HttpError && error.statusCode === 404 ? notFound(MISSING_ORGANIZATION) : error;
  });
  if (!can(actor, 'read', target)) throw notFound(MISSING_ORGANIZATION);
  const rows = await repo.activeRequests(db, organizationId, now.toISOString());
  return {
    items: rows.map((r) => ({
      request_id: Number(r.request_id), name: r.requester_name, role: r.role, break_glass: Number(r.break_glass) === 1, date_until: r.date_until!,
      mine: r.member_id === actor.member_id, can_end: canSupport(actor, 'end', target, r.member_id),
    })),
  };
}

/** GET /support-access: the caller's own requests everywhere and the organizations it may ask (none: it may not). */
export async function myRequests(db: Db, actor: RequestActor, now: Date) {
  const roles = supportRolesOf(actor);
  const [rows, organizations] = await Promise.all([
    repo.memberRequests(db, actor.member_id), roles.length ? repo.requestableOrganizations(db) : Promise.resolve([]),
  ]);
  const items = await Promise.all(rows.map(async (r) => shown(actor, r, await loadTarget(db, r.organization_id, actor), now.getTime())));
  return { items, organizations, requestable_roles: roles, break_glass: roles.length > 0 && actor.roles.some((a) => a.organization_role === 'OPERATOR' && a.role === 'SUPERVISOR' && !a.support_request) };
}

/** POST /organizations/{id}/support-access: a request, approved at once under auto-approval or as a break glass. */
export async function requestAccess(db: Db, actor: RequestActor, organizationId: string, body: SupportRequestBody, now: Date): Promise<SupportRequest> {
  const target = await authorizeSupport(db, actor, body.break_glass ? 'breakGlass' : 'request', organizationId);
  const allowed = supportRolesOf(actor);
  if (!allowed.includes(body.role)) {
    if (!(['MEMBER', 'ISSUER', 'ADMINISTRATOR'] as string[]).includes(body.role)) {
      throw badRequest(`Invalid body field 'role': support access grants MEMBER, ISSUER or ADMINISTRATOR, never ${body.role}.`, 'role');
    }
    throw forbidden(`Your role allows you to ask for ${allowed.join(' or ')}, not ${body.role}.`);
  }
  if (body.break_glass && body.hours > BREAK_GLASS_MAX_HOURS) {
    throw badRequest(`Invalid body field 'hours': a break glass lasts at most ${BREAK_GLASS_MAX_HOURS} hours.`, 'hours');
  }
  const at = now.toISOString();
  const open = await repo.openRequest(db, organizationId, actor.member_id, at);
  if (open) throw conflict(`You already have support request #${open.request_id} for ${open.organization_name} (${stateAt(open, now.getTime()).toLowerCase()}); end it first.`);
  const organization = await repo.organizationOf(db, organizationId);
  if (!organization) throw notFound(MISSING_ORGANIZATION);
  const settings = await repo.settingsOf(db, organizationId);
  const automatic = !body.break_glass && settings.auto_approve && body.hours <= settings.max_hours;
  const id = await db.transaction().execute(async (tx) => {
    const requestId = await repo.insertRequest(tx, {
      organization_id: organizationId, member_id: actor.member_id, requester_organization_id: actor.organization_id,
      requester_name: actor.name, requester_email: actor.email, role: body.role, reason: body.reason, hours: body.hours,
      break_glass: body.break_glass ? 1 : 0, state: 'REQUESTED', date_requested: at,
      date_decided: null, decided_by: null, date_until: null, date_ended: null, ended_by: null,
    });
    const until = new Date(now.getTime() + body.hours * HOUR).toISOString();
    if (body.break_glass) {
      await repo.approve(tx, requestId, 'break glass', at, until);
      const row = (await repo.findRequest(tx, organizationId, requestId))!;
      await journalBoth(tx, 'SUPPORT_ACCESS_BREAK_GLASS', row,
        `BREAK GLASS: ${named(row)} taken without consent until ${formatUtcDateTime(until)}. Reason: ${body.reason}`, actor.email, now);
      return requestId;
    }
    const row = (await repo.findRequest(tx, organizationId, requestId))!;
    await journalBoth(tx, 'SUPPORT_ACCESS_REQUESTED', row, `Asked for ${named(row)} for ${body.hours} h. Reason: ${body.reason}`, actor.email, now);
    if (automatic) {
      await repo.approve(tx, requestId, 'automatically', at, until);
      const approved = (await repo.findRequest(tx, organizationId, requestId))!;
      await journalBoth(tx, 'SUPPORT_ACCESS_APPROVED', approved,
        `Approved ${named(approved)} automatically (the organization's setting, up to ${settings.max_hours} h), until ${formatUtcDateTime(until)}.`, null, now);
    }
    return requestId;
  });
  return shown(actor, (await repo.findRequest(db, organizationId, id))!, target, now.getTime());
}

/** The request of the organization that the caller may see (else 404), for a decision on it. */
async function requestFor(db: Db, actor: RequestActor, organizationId: string, requestId: string) {
  const number = /^[1-9][0-9]{0,9}$/.test(requestId) ? Number(requestId) : NaN;
  const target = await authorizeSupport(db, actor, 'list', organizationId);
  const row = Number.isSafeInteger(number) ? await repo.findRequest(db, organizationId, number) : undefined;
  // Support staff see only their own requests of another organization.
  if (!row || (!canSupport(actor, 'decide', target) && row.member_id !== actor.member_id)) throw notFound('Support request not found.');
  return { target, row };
}

/** The request and its organization when the actor may take `change` on it: else 404, or 403 naming why. */
async function authorizeChange(db: Db, actor: RequestActor, organizationId: string, requestId: string, change: 'approve' | 'deny' | 'end') {
  const found = await requestFor(db, actor, organizationId, requestId);
  if (change === 'end') {
    if (!canSupport(actor, 'end', found.target, found.row.member_id)) throw forbidden(REFUSALS.end);
    return found;
  }
  if (found.row.member_id === actor.member_id) throw forbidden(`You cannot ${change} your own support request.`);
  if (!canSupport(actor, 'decide', found.target)) throw forbidden(REFUSALS.decide);
  return found;
}

/**
 * The early check of the support-access routes that read input (access/target-guard.ts): the same refusal the service
 * gives, before the body is parsed, so a caller who may not act is refused alike whatever it sends.
 */
export async function checkSupportRoute(db: Db, actor: RequestActor, url: string, params: Record<string, string>): Promise<void> {
  const change = /\/:requestId\/(approve|deny|end)$/.exec(url)?.[1] as 'approve' | 'deny' | 'end' | undefined;
  if (change) await authorizeChange(db, actor, params.id, params.requestId, change);
  else if (url.endsWith('/settings')) await authorizeSupport(db, actor, 'decide', params.id);
  else await authorizeSupport(db, actor, 'request', params.id);
}

/** Why a request cannot be decided or ended any more (409), in its state at `at`. */
function settled(row: SupportRow, at: number): string {
  const state = stateAt(row, at);
  const what = `Support request #${row.request_id}`;
  if (state === 'APPROVED') return `${what} is already approved.`;
  if (state === 'DENIED') return `${what} was denied.`;
  if (state === 'ENDED') return `${what} has ended.`;
  if (state === 'EXPIRED' && !row.date_decided) return `${what} lapsed: nobody decided within ${SUPPORT_REQUEST_WAITS_HOURS} hours. Ask again if it is still needed.`;
  if (state === 'EXPIRED') return `${what} has expired.`;
  return `${what} waits for a decision.`;
}

/** POST …/support-access/{requestId}/approve or /deny: one of two decisions at once wins, the other is a 409. */
export async function decide(db: Db, actor: RequestActor, organizationId: string, requestId: string, decision: 'approve' | 'deny', now: Date): Promise<SupportRequest> {
  const { target, row } = await authorizeChange(db, actor, organizationId, requestId, decision);
  const at = now.toISOString();
  if (stateAt(row, now.getTime()) !== 'REQUESTED') throw conflict(settled(row, now.getTime()));
  await db.transaction().execute(async (tx) => {
    const until = new Date(now.getTime() + Number(row.hours) * HOUR).toISOString();
    const changed = decision === 'approve' ? await repo.approve(tx, row.request_id, actor.email, at, until) : await repo.deny(tx, row.request_id, actor.email, at);
    if (!changed) throw conflict(settled((await repo.findRequest(tx, organizationId, row.request_id))!, now.getTime()));
    const after = (await repo.findRequest(tx, organizationId, row.request_id))!;
    if (decision === 'approve') {
      await journalBoth(tx, 'SUPPORT_ACCESS_APPROVED', after, `Approved ${named(after)}, until ${formatUtcDateTime(until)}.`, actor.email, now);
    } else {
      await journalBoth(tx, 'SUPPORT_ACCESS_DENIED', after, `Denied ${named(after)}.`, actor.email, now);
    }
  });
  return shown(actor, (await repo.findRequest(db, organizationId, row.request_id))!, target, now.getTime());
}

/** POST …/support-access/{requestId}/end: effective at the next call on every instance (the journal moves both versions). */
export async function endAccess(db: Db, actor: RequestActor, organizationId: string, requestId: string, now: Date): Promise<SupportRequest> {
  const { target, row } = await authorizeChange(db, actor, organizationId, requestId, 'end');
  const at = now.toISOString();
  const state = stateAt(row, now.getTime());
  if (state !== 'REQUESTED' && state !== 'APPROVED') throw conflict(settled(row, now.getTime()));
  await db.transaction().execute(async (tx) => {
    if (!(await repo.end(tx, row.request_id, actor.email, at))) throw conflict(settled((await repo.findRequest(tx, organizationId, row.request_id))!, now.getTime()));
    const after = (await repo.findRequest(tx, organizationId, row.request_id))!;
    const what = state === 'REQUESTED' ? `Withdrew ${named(after)} before a decision.` : `Ended ${named(after)} early, at ${formatUtcDateTime(at)}.`;
    await journalBoth(tx, 'SUPPORT_ACCESS_ENDED', after, what, actor.email, now);
  });
  return shown(actor, (await repo.findRequest(db, organizationId, row.request_id))!, target, now.getTime());
}

/** PUT /organizations/{id}/support-access/settings: by those who consent. */
export async function saveSettings(db: Db, actor: RequestActor, organizationId: string, settings: SupportSettings, now: Date): Promise<SupportSettings> {
  await authorizeSupport(db, actor, 'decide', organizationId);
  await db.transaction().execute(async (tx) => {
    await repo.saveSettings(tx, organizationId, settings);
    await audit(tx, {
      reason: 'SUPPORT_ACCESS_SETTINGS_SAVED', organization_id: organizationId, member_email: actor.email, now,
      message: settings.auto_approve
        ? `Support access is approved automatically, up to ${settings.max_hours} h.`
        : 'Support access waits for an administrator\'s approval.',
    });
  });
  return repo.settingsOf(db, organizationId);
}
