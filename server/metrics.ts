/**
 * The portal's own Prometheus metrics that code outside http/ counts (sign-ins, refusals, export
 * rebuilds), and Node's defaults (among them the event-loop delay `nodejs_eventloop_lag_*`): one
 * registry per process, which /metrics serves beside each app's request and pool metrics
 * (http/operations.ts). Label values are fixed words: never an id, an email or a token.
 */
import client from 'prom-client';

export const processRegistry = new client.Registry();
client.collectDefaultMetrics({ register: processRegistry });

/** Why the API refused a caller (auth/hook.ts): bounded reasons, see auth/refusals.ts. */
export const authRefusals = new client.Counter({
  name: 'portal_auth_refusals_total',
  help: 'API calls refused at sign-in by reason (missing_token, expired, bad_signature, unknown_member, member_banned, ...)',
  labelNames: ['reason'] as const,
  registers: [processRegistry],
});

/** Sign-ins the portal completed: the web app's first call after the provider (GET /api/auth/callback). */
export const signIns = new client.Counter({
  name: 'portal_sign_ins_total',
  help: 'Sign-ins completed (GET /api/auth/callback answered with the profile)',
  registers: [processRegistry],
});

/** The built-in provider's password form: ok, failed (wrong email or password), limited (429). */
export const passwordSignIns = new client.Counter({
  name: 'portal_password_sign_ins_total',
  help: "Password sign-ins at the built-in provider's form by outcome (ok, failed, limited)",
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

/** Builds of the download gateway's exports (modules/piston/exports.ts) and how long they took. */
export const exportRebuilds = new client.Histogram({
  name: 'portal_export_rebuild_duration_seconds',
  help: 'Rebuilds of the gateway exports by kind (routes, certs) and outcome (ok, error)',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processRegistry],
});
