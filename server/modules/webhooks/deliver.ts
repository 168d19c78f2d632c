/**
 * Delivers webhooks (issue 13 item 5) the way mail.ts sends mails: take the due deliveries by
 * moving their next attempt a lease ahead (a short transaction), POST them outside any
 * transaction, at most CONCURRENCY at once and each within TIMEOUT_MS, then record the attempt and
 * the outcome. A delivery waits while an earlier one of the same object to the same endpoint is
 * pending, so a receiver gets one object's events in order. Redirects are not followed.
 */
import http from 'node:http';
import https from 'node:https';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { audit } from '../../db/audit';
import { isPostgres, type Db } from '../../db/database';
import { LEASE_MS, MAX_ATTEMPTS, nextAttemptAt } from '../../retry';
import { hostRefusal, publicLookup } from './address';

const TIMEOUT_MS = 10_000;
const CONCURRENCY = 4;

export interface DeliveryOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
}

interface Due {
  delivery_id: string;
  /** The webhook-id: the first delivery's id of this event to this endpoint, kept by redeliveries. */
  message_id: string;
  endpoint_id: string;
  organization_id: string;
  event_type: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
}

interface Outcome { status: number | null; error: string | null; ms: number }

/** The webhook-signature header: the secret's signature, and the previous secret's while it still signs. */
function signatures(due: Pick<Due, 'secret' | 'previous_secret' | 'previous_secret_until'>, id: string, at: Date, payload: string, now: Date): string {
  const secrets = [due.secret, ...(due.previous_secret && due.previous_secret_until && due.previous_secret_until > now.toISOString() ? [due.previous_secret] : [])];
  return secrets.map((s) => new Webhook(s).sign(id, at, payload)).join(' ');
}

/** One POST: its status code, or the error that kept it from one. */
function post(due: Due, now: Date, options: DeliveryOptions): Promise<Outcome> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): Outcome => ({ status, error, ms: Math.round(performance.now() - started) });
  let url: URL;
  try {
    url = new URL(due.url);
  } catch {
    return Promise.resolve(done(null, 'not a valid URL'));
  }
  const refusal = hostRefusal(url, options.allowPrivate);
  if (refusal) return Promise.resolve(done(null, refusal));
  // The header's timestamp is the wall clock's: receivers check it against theirs (Standard Webhooks' tolerance).
  const sentAt = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'CustomerPortal-Webhooks/1',
    'webhook-id': due.message_id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signatures(due, due.message_id, sentAt, due.payload, now),
  };
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST', headers, signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
      ...(options.allowPrivate ? {} : { lookup: publicLookup }),
    }, (response) => {
      response.resume(); // the body is not read, only drained
      response.on('end', () => {
        const status = response.statusCode ?? null;
        if (status !== null && status >= 200 && status < 300) resolve(done(status, null));
        else if (status !== null && status >= 300 && status < 400) resolve(done(status, `redirect not followed (HTTP ${status})`));
        else resolve(done(status, `HTTP ${status}`));
      });
      response.on('error', (error) => resolve(done(response.statusCode ?? null, error.message)));
    });
    request.on('error', (error) => resolve(done(null, error.name === 'AbortError' || error.name === 'TimeoutError' ? `no answer within ${(options.timeoutMs ?? TIMEOUT_MS) / 1000} s` : error.message)));
    request.end(due.payload);
  });
}

/** Takes the due deliveries whose object has nothing earlier pending at the same endpoint. */
async function take(db: Db, now: Date, batch: number): Promise<Due[]> {
  const at = now.toISOString();
  return db.transaction().execute(async (tx) => {
    const skipLocked = isPostgres(tx) ? sql` for update of d skip locked` : sql``;
    const { rows } = await sql<Due>`
      select d.delivery_id, d.endpoint_id, e.organization_id,
        -- The first delivery of the event to this endpoint: a redelivery is made only after it was tried, so its
        -- attempts come first even when two instances' clocks disagree about date_created.
        (select o.delivery_id from webhook_deliveries o where o.endpoint_id = d.endpoint_id and o.event_id = d.event_id
         order by coalesce((select min(a.attempt_id) from webhook_attempts a where a.delivery_id = o.delivery_id), 2147483647), o.date_created, o.delivery_id
         limit 1) as message_id, d.event_type, d.payload, d.attempts, e.url, e.secret, e.previous_secret, e.previous_secret_until
      from webhook_deliveries d join webhook_endpoints e on e.endpoint_id = d.endpoint_id
      where d.status = 'pending' and d.next_attempt_at <= ${at} and e.active = 1
        and not exists (select 1 from webhook_deliveries p where p.endpoint_id = d.endpoint_id and p.subject_key = d.subject_key
                        and p.status = 'pending' and (p.event_id < d.event_id or (p.event_id = d.event_id and p.date_created < d.date_created)))
      order by d.next_attempt_at, d.event_id limit ${batch}${skipLocked}`.execute(tx);
    if (rows.length) {
      await tx.updateTable('webhook_deliveries').set({ next_attempt_at: new Date(now.getTime() + LEASE_MS).toISOString() })
        .where('delivery_id', 'in', rows.map((r) => r.delivery_id)).execute();
    }
    return rows;
  });
}

async function record(db: Db, due: Due, outcome: Outcome, now: Date): Promise<void> {
  const at = now.toISOString();
  const attempts = Number(due.attempts) + 1;
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('webhook_attempts').values({
      delivery_id: due.delivery_id, date_attempted: at, status_code: outcome.status, duration_ms: outcome.ms, error: outcome.error?.slice(0, 500) ?? null,
    }).execute();
    if (!outcome.error) {
      await tx.updateTable('webhook_deliveries').set({ status: 'delivered', attempts, date_finished: at }).where('delivery_id', '=', due.delivery_id).execute();
      return;
    }
    const next = nextAttemptAt(attempts, now);
    await tx.updateTable('webhook_deliveries')
      .set(next ? { attempts, next_attempt_at: next.toISOString() } : { attempts, status: 'failed', date_finished: at })
      .where('delivery_id', '=', due.delivery_id).execute();
    if (!next) {
      const where = new URL(due.url);
      await audit(tx, {
        reason: 'WEBHOOK_DELIVERY_FAILED', organization_id: due.organization_id, member_email: null, now,
        message: `Gave up delivering ${due.event_type} (${due.delivery_id}) to ${where.origin}${where.pathname} after ${MAX_ATTEMPTS} attempts: ${outcome.error.slice(0, 200)}`,
      });
    }
  });
}

/** Delivers what is due at `now` (at most `batch`); answers how many were delivered. */
export async function deliverDueWebhooks(db: Db, now: Date, options: DeliveryOptions, batch = 20): Promise<number> {
  const due = await take(db, now, batch);
  let delivered = 0;
  const queue = [...due];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const outcome = await post(next, now, options);
      await record(db, next, outcome, now);
      if (!outcome.error) delivered++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
  return delivered;
}
