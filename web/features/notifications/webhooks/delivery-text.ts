/** How a delivery's attempts read in the log: "200 in 35 ms", "no answer: timeout after 10000 ms". */
import type { WebhookDelivery } from '../../../../common/schemas/webhooks';

export type Attempt = WebhookDelivery['attempt_log'][number];

function attemptOutcome(attempt: Attempt): string {
  const answer = attempt.status_code === null ? 'No answer' : `HTTP ${attempt.status_code}`;
  return `${answer} in ${attempt.duration_ms} ms${attempt.error ? ` (${attempt.error})` : ''}`;
}

/** The latest attempt's outcome, or why there is none yet. */
export function lastOutcome(delivery: WebhookDelivery): string {
  const last = delivery.attempt_log.at(-1);
  return last ? attemptOutcome(last) : 'Not tried yet';
}

/** The payload as indented JSON (it is sent as compact JSON); as it is when it is not JSON. */
export function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}
