/**
 * Webhook endpoints of an organization (issue 13 item 5): registered, changed, removed and their
 * secret rotated by those the policy lets manage notifications; each change journaled. Journal
 * records name an endpoint by origin and path only: a query string may hold a receiver's token.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Actor } from '../../../common/policy';
import type { deliveryQuerySchema, Webhook, WebhookBody, WebhookDelivery } from '../../../common/schemas/webhooks';
import { formatUtcDateTime } from '../../../common/dates';
import { authorize } from '../../access/authorize';
import { audit } from '../../db/audit';
import type { Db, Queryable } from '../../db/database';
import { lockRow } from '../../db/lock';
import { badRequest, conflict, notFound } from '../../errors';
import { hostRefusal, resolvedRefusal } from './address';

type Caller = Actor & { email: string };
const MISSING = 'Webhook endpoint not found.';
const ROTATION_GRACE_MS = 24 * 3_600_000;

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const shownUrl = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

async function rows(db: Queryable, organizationId: string, endpointId?: string): Promise<Webhook[]> {
  let q = db.selectFrom('webhook_endpoints as e')
    .select(['e.endpoint_id', 'e.organization_id', 'e.url', 'e.description', 'e.events', 'e.active', 'e.date_created', 'e.date_updated', 'e.previous_secret_until'])
    .select((eb) => [
      eb.selectFrom('webhook_deliveries as d').select((x) => x.fn.countAll<number>().as('n'))
        .whereRef('d.endpoint_id', '=', 'e.endpoint_id').where('d.status', '=', 'failed').as('failed_deliveries'),
      eb.selectFrom('webhook_deliveries as d').select('d.status')
        .whereRef('d.endpoint_id', '=', 'e.endpoint_id').orderBy('d.event_id', 'desc').orderBy('d.date_created', 'desc').limit(1).as('last_status'),
    ])
    .where('e.organization_id', '=', organizationId);
  if (endpointId) q = q.where('e.endpoint_id', '=', endpointId);
  const found = await q.orderBy('e.date_created').orderBy('e.endpoint_id').execute();
  return found.map((r) => ({
    ...r, events: JSON.parse(r.events) as string[], active: r.active === 1, failed_deliveries: Number(r.failed_deliveries ?? 0),
    last_status: (r.last_status ?? null) as Webhook['last_status'],
  }));
}

async function one(db: Queryable, organizationId: string, endpointId: string): Promise<Webhook> {
  const [found] = await rows(db, organizationId, endpointId);
  if (!found) throw notFound(MISSING);
  return found;
}

/** An address or a name that resolves (now) to one that webhooks may not reach is refused at once; the sender checks again. */
async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  const refusal = hostRefusal(new URL(url), allowPrivate) ?? (await resolvedRefusal(new URL(url), allowPrivate));
  if (refusal) throw badRequest(`Invalid body field 'url': ${refusal}`, 'url');
}

export async function listWebhooks(db: Db, actor: Actor, organizationId: string): Promise<Webhook[]> {
  await authorize(db, actor, 'notifications.manage', organizationId);
  return rows(db, organizationId);
}

export async function createWebhook(db: Db, actor: Caller, organizationId: string, body: WebhookBody, now: Date, allowPrivate: boolean) {
  await authorize(db, actor, 'notifications.manage', organizationId);
  await checkUrl(body.url, allowPrivate);
  const id = randomUUID();
  const secret = newSecret();
  const at = now.toISOString();
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('webhook_endpoints').values({
      endpoint_id: id, organization_id: organizationId, url: body.url, description: body.description, events: JSON.stringify(body.events),
      active: body.active ? 1 : 0, secret, previous_secret: null, previous_secret_until: null, date_created: at, date_updated: at,
    }).execute();
    await audit(tx, {
      reason: 'WEBHOOK_CREATED', organization_id: organizationId, member_email: actor.email, now,
      message: `Registered webhook endpoint ${shownUrl(body.url)} for ${body.events.join(', ')}${body.active ? '' : ' (inactive)'}.`,
    });
  });
  return { endpoint: await one(db, organizationId, id), secret };
}

/** Runs a change of one endpoint in its transaction, with the row locked and found in this organization. */
async function change<T>(db: Db, organizationId: string, endpointId: string, run: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    if (!(await lockRow(tx, 'webhook_endpoints', 'endpoint_id', endpointId))) throw notFound(MISSING);
    const row = await tx.selectFrom('webhook_endpoints').select('organization_id').where('endpoint_id', '=', endpointId).executeTakeFirst();
    if (row?.organization_id !== organizationId) throw notFound(MISSING);
    return run(tx);
  });
}

export async function saveWebhook(db: Db, actor: Caller, organizationId: string, endpointId: string, body: WebhookBody, now: Date, allowPrivate: boolean): Promise<Webhook> {
  await authorize(db, actor, 'notifications.manage', organizationId);
  await checkUrl(body.url, allowPrivate);
  await change(db, organizationId, endpointId, async (tx) => {
    await tx.updateTable('webhook_endpoints').set({
      url: body.url, description: body.description, events: JSON.stringify(body.events), active: body.active ? 1 : 0, date_updated: now.toISOString(),
    }).where('endpoint_id', '=', endpointId).execute();
    await audit(tx, {
      reason: 'WEBHOOK_SAVED', organization_id: organizationId, member_email: actor.email, now,
      message: `Saved webhook endpoint ${shownUrl(body.url)}: ${body.events.join(', ')}${body.active ? '' : ' (inactive)'}.`,
    });
  });
  return one(db, organizationId, endpointId);
}

export async function removeWebhook(db: Db, actor: Caller, organizationId: string, endpointId: string, now: Date): Promise<void> {
  await authorize(db, actor, 'notifications.manage', organizationId);
  await change(db, organizationId, endpointId, async (tx) => {
    const { url } = await tx.selectFrom('webhook_endpoints').select('url').where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
    await tx.deleteFrom('webhook_endpoints').where('endpoint_id', '=', endpointId).execute();
    await audit(tx, { reason: 'WEBHOOK_REMOVED', organization_id: organizationId, member_email: actor.email, now, message: `Removed webhook endpoint ${shownUrl(url)} and its delivery log.` });
  });
}

/** A new secret; the previous one keeps signing beside it for a day, while receivers switch. */
export async function rotateSecret(db: Db, actor: Caller, organizationId: string, endpointId: string, now: Date) {
  await authorize(db, actor, 'notifications.manage', organizationId);
  const secret = newSecret();
  await change(db, organizationId, endpointId, async (tx) => {
    const { url, secret: previous } = await tx.selectFrom('webhook_endpoints').select(['url', 'secret']).where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
    const until = new Date(now.getTime() + ROTATION_GRACE_MS).toISOString();
    await tx.updateTable('webhook_endpoints').set({ secret, previous_secret: previous, previous_secret_until: until, date_updated: now.toISOString() })
      .where('endpoint_id', '=', endpointId).execute();
    await audit(tx, { reason: 'WEBHOOK_SECRET_ROTATED', organization_id: organizationId, member_email: actor.email, now, message: `Rotated the secret of webhook endpoint ${shownUrl(url)}; the previous one also signs until ${formatUtcDateTime(until)}.` });
  });
  return { endpoint: await one(db, organizationId, endpointId), secret };
}

async function deliveryRows(db: Queryable, endpointId: string, query: { before?: number; status?: string; limit: number; deliveryId?: string }) {
  let q = db.selectFrom('webhook_deliveries')
    .select(['delivery_id', 'event_id', 'event_type', 'status', 'attempts', 'next_attempt_at', 'date_created', 'date_finished', 'payload'])
    .where('endpoint_id', '=', endpointId);
  if (query.deliveryId) q = q.where('delivery_id', '=', query.deliveryId);
  if (query.before) q = q.where('event_id', '<', query.before);
  if (query.status) q = q.where('status', '=', query.status as WebhookDelivery['status']);
  const found = await q.orderBy('event_id', 'desc').orderBy('date_created', 'desc').limit(query.limit + 1).execute();
  const page = found.slice(0, query.limit);
  const attempts = page.length === 0 ? [] : await db.selectFrom('webhook_attempts')
    .select(['delivery_id', 'date_attempted', 'status_code', 'duration_ms', 'error'])
    .where('delivery_id', 'in', page.map((d) => d.delivery_id)).orderBy('attempt_id').execute();
  const items: WebhookDelivery[] = page.map((d) => ({
    ...d, event_id: Number(d.event_id), attempts: Number(d.attempts), next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
    attempt_log: attempts.filter((a) => a.delivery_id === d.delivery_id).map(({ delivery_id: _d, ...a }) => ({ ...a, duration_ms: Number(a.duration_ms) })),
  }));
  // Older pages continue below the last event shown (a redelivery shares its event: it is on the same page).
  return { items, next_before: found.length > query.limit ? items[items.length - 1].event_id : null };
}

export async function listDeliveries(db: Db, actor: Actor, organizationId: string, endpointId: string, query: z.output<typeof deliveryQuerySchema>) {
  await authorize(db, actor, 'notifications.manage', organizationId);
  await one(db, organizationId, endpointId);
  return deliveryRows(db, endpointId, query);
}

/**
 * Queues the delivery's payload again now, as a new delivery of the same event. The sender gives it the event's
 * webhook-id (deliver.ts), so a receiver that dedupes by id sees the same message. One at a time: while a delivery
 * of the event to this endpoint is pending, another is a 409. The endpoint's row lock (`change`) puts concurrent
 * calls one after the other, so the second one sees the first one's delivery.
 */
export async function redeliver(db: Db, actor: Caller, organizationId: string, endpointId: string, deliveryId: string, now: Date): Promise<WebhookDelivery> {
  await authorize(db, actor, 'notifications.manage', organizationId);
  const id = `msg_${randomUUID()}`;
  await change(db, organizationId, endpointId, async (tx) => {
    const old = await tx.selectFrom('webhook_deliveries').selectAll().where('delivery_id', '=', deliveryId).where('endpoint_id', '=', endpointId).executeTakeFirst();
    if (!old) throw notFound('Delivery not found.');
    if (old.status === 'pending') throw conflict('This delivery is still being tried: it needs no redelivery.');
    const pending = await tx.selectFrom('webhook_deliveries').select('delivery_id')
      .where('endpoint_id', '=', endpointId).where('event_id', '=', old.event_id).where('status', '=', 'pending').executeTakeFirst();
    if (pending) throw conflict('A redelivery of this event is already being tried: wait for its outcome.');
    const at = now.toISOString();
    await tx.insertInto('webhook_deliveries').values({
      delivery_id: id, endpoint_id: endpointId, event_id: old.event_id, event_type: old.event_type, subject_key: old.subject_key,
      payload: old.payload, status: 'pending', next_attempt_at: at, date_created: at, date_finished: null,
    }).execute();
    const { url } = await tx.selectFrom('webhook_endpoints').select('url').where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
    await audit(tx, { reason: 'WEBHOOK_REDELIVERED', organization_id: organizationId, member_email: actor.email, now, message: `Queued ${old.event_type} (${deliveryId}) again for ${shownUrl(url)} as ${id}.` });
  });
  return (await deliveryRows(db, endpointId, { limit: 1, deliveryId: id })).items[0];
}
