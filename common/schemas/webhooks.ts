/** Webhook endpoints and their deliveries (issue 13 item 5): the API's bodies, shared with the web forms. */
import { z } from 'zod';
import { EVENT_TYPES } from '../events';
import { text } from './text';
import { strictBody } from './body';

const unique = <T>(items: T[]) => new Set(items).size === items.length;

const webhookShape = {
  url: text().max(2000).url('must be an http:// or https:// URL').refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL'),
  description: text().max(500).default(''),
  events: z.array(z.enum(EVENT_TYPES)).min(1, 'choose at least one event').max(EVENT_TYPES.length).refine(unique, 'must not repeat an event'),
  active: z.boolean().default(true),
};

export const webhookSchema = z.object({
  endpoint_id: z.string(),
  organization_id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  date_created: z.string(),
  date_updated: z.string(),
  /** After a rotation the previous secret also signs until then (receivers switch over). */
  previous_secret_until: z.string().nullable(),
  /** Deliveries that failed for good, and the latest attempt's outcome, for the list. */
  failed_deliveries: z.number(),
  last_status: z.enum(['pending', 'delivered', 'failed']).nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** POST's and PUT's body; the read-only fields of the endpoint as GET gives it may be sent back and are dropped. */
export const webhookBodySchema = strictBody(webhookShape, webhookSchema);
export type WebhookBody = z.output<typeof webhookBodySchema>;

export const webhookListSchema = z.object({ items: z.array(webhookSchema) });

/** The answer of creating an endpoint or rotating its secret: the secret (`whsec_…`), shown this once. */
export const webhookSecretSchema = z.object({ endpoint: webhookSchema, secret: z.string() });

const webhookAttemptSchema = z.object({
  date_attempted: z.string(),
  status_code: z.number().nullable(),
  duration_ms: z.number(),
  error: z.string().nullable(),
});

export const webhookDeliverySchema = z.object({
  delivery_id: z.string(),
  event_id: z.number(),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  date_created: z.string(),
  date_finished: z.string().nullable(),
  /** The JSON body sent (the same bytes on every attempt). */
  payload: z.string(),
  attempt_log: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryPageSchema = z.object({
  items: z.array(webhookDeliverySchema),
  /** Pass as `before` for older deliveries; null at the end. */
  next_before: z.number().nullable(),
});

export const deliveryQuerySchema = z.object({
  before: z.coerce.number().int().positive().optional(),
  status: z.enum(['pending', 'delivered', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
