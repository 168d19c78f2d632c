/**
 * The auth hook of /api: every route needs a signed-in member unless it says otherwise in
 * `config.auth` ('public' for sign-in plumbing, 'self' for routes that check their own tokens).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveActor, type RequestActor } from './actor';
import { cachingVerifier, UnresolvedIdentity, type TokenVerifier } from './tokens';
import { forbidden, HttpError, unauthorized, unavailable } from '../errors';
import { describeError } from '../startup';
import { authRefusals } from '../metrics';
import { memberRefusal, tokenRefusal } from './refusals';
import { isPlainText } from '../../common/schemas/text';
import { resolveKeyActor, type KeyActor } from './api-key-actor';
import { KeyBudgets, limitKey, noteKeyUse } from './api-key-limits';
import { looksLikeKey } from './api-key-secret';
import { actingKey, actingSupport } from '../db/audit';
import type { Actor } from '../../common/policy';

type AuthMode = 'member' | 'public' | 'self';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
  interface FastifyRequest {
    actor: RequestActor | null;
  }
  interface FastifyInstance {
    /** Verifies people's access tokens (for routes that authenticate themselves). */
    tokenVerifier: TokenVerifier;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  return bearerTokenOf(request.headers.authorization);
}

/** The token of an Authorization header `Bearer <token>` (RFC 6750's b64token), or null. */
export function bearerTokenOf(header: string | undefined): string | null {
  const match = header && /^Bearer ([A-Za-z0-9\-_.~+/]+=*)$/.exec(header);
  return match ? match[1] : null;
}

export function registerAuth(api: FastifyInstance, verifier: TokenVerifier): void {
  api.decorateRequest('actor', null);
  api.decorate('tokenVerifier', cachingVerifier(verifier));
  const budgets = new KeyBudgets(api.db, api.config.automation.requestsPerMinute);
  api.addHook('onRequest', async (request, reply) => {
    const mode = request.routeOptions.config?.auth ?? 'member';
    if (mode !== 'member') return;
    const token = bearerToken(request);
    if (!token) {
      authRefusals.inc({ reason: 'missing_token' });
      throw unauthorized();
    }
    request.actor = looksLikeKey(token) ? await authenticateKey(api, budgets, request, reply, token) : await authenticateMember(api, request, token);
  });
  // The rest of a key's call runs with the key known to the audit path, so whatever it changes is journaled as the
  // key's doing (db/audit.ts), in every module alike. A callback hook: the route runs inside `run`.
  api.addHook('onRequest', (request, _reply, done) => {
    const key = request.actor && 'key' in request.actor ? (request.actor as KeyActor).key : undefined;
    if (key) actingKey.run(key.label, done);
    else done();
  });
  // The same for a person acting under vendor support accesses (issue 33): what it changes in such an organization
  // is journaled as done "name (vendor support, request #N)". Nothing for everyone else.
  api.addHook('onRequest', (request, _reply, done) => {
    const labels = request.actor && supportLabels(request.actor);
    if (labels) actingSupport.run(labels, done);
    else done();
  });
}

/** The organization in the path, read with the sign-in's versions (http/kept-answers.ts); none for an id no organization can have. */
function pathOrganization(request: FastifyRequest): string[] {
  const { id } = (request.params ?? {}) as { id?: unknown };
  return typeof id === 'string' && isPlainText(id) ? [id] : [];
}

/** An organization API key's call (issue 32): its actor, then its limit and the note of its use. */
async function authenticateKey(api: FastifyInstance, budgets: KeyBudgets, request: FastifyRequest, reply: FastifyReply, secret: string): Promise<KeyActor> {
  const now = api.now();
  let actor: KeyActor;
  try {
    actor = await resolveKeyActor(api.db, secret, now, pathOrganization(request));
  } catch (error) {
    if (error instanceof HttpError) authRefusals.inc({ reason: error.statusCode === 401 ? 'api_key_invalid' : 'api_key_refused' });
    throw error;
  }
  await limitKey(budgets, reply, actor.key, now);
  await noteKeyUse(api.db, actor.key, request.ip, now);
  return actor;
}

/** The web app's ID token (lib/access-token.ts), for a provider whose access token lacks the person's claims. */
function idTokenOf(request: FastifyRequest): string | null {
  const header = request.headers['x-id-token'];
  return typeof header === 'string' && /^[A-Za-z0-9\-_.]+$/.test(header) ? header : null;
}

/** What a person is told when the provider's tokens do not say who they are. */
const UNRESOLVED_PERSON = 'Your sign-in provider did not tell the portal your email address, so the portal cannot tell who you are. Please tell the portal\'s administrator: the server log names the setting to change (OIDC_EMAIL_CLAIM).';
const PROVIDER_UNREACHABLE = 'The sign-in provider could not be reached to confirm who you are. Please try again in a moment.';

/** Refusals that only a setting of the portal or the provider changes: logged at warn with that setting. */
const SETTING_OF_REFUSAL: Record<string, string> = {
  wrong_issuer: 'OIDC_ISSUER (it must equal the tokens\' iss exactly)',
  wrong_audience: 'OIDC_AUDIENCE (the provider issues access tokens for another audience)',
};

/** Verifies a person's access token and resolves the member behind it (refusing bans). */
export async function authenticateMember(api: FastifyInstance, request: FastifyRequest, token: string): Promise<RequestActor> {
  let identity;
  try {
    identity = await api.tokenVerifier.verify(token, idTokenOf(request));
  } catch (error) {
    const reason = tokenRefusal(error);
    authRefusals.inc({ reason });
    if (error instanceof UnresolvedIdentity) {
      request.log.warn({ reason, setting: error.setting }, `sign-in refused, the person is unknown: ${error.detail}`);
      throw forbidden(UNRESOLVED_PERSON, 'AccessError');
    }
    if (reason === 'provider_unreachable') {
      request.log.warn({ reason }, `sign-in not checked, the identity provider did not answer: ${describeError(error)}`);
      throw unavailable(PROVIDER_UNREACHABLE);
    }
    // A signature that verified with a claim that did not: the provider's own token, so a setting.
    const setting = SETTING_OF_REFUSAL[reason];
    if (setting) request.log.warn({ reason }, `bearer token refused: ${(error as Error).message}; check ${setting}`);
    else request.log.info({ reason: (error as Error).message }, 'bearer token refused');
    throw unauthorized('Your session is not valid any more. Please sign in again.');
  }
  try {
    // The organization in the path: its version is read with the member's, in one statement (http/kept-answers.ts).
    // An id no organization can have (a control character, which PostgreSQL refuses to compare) is left out.
    return await resolveActor(api.db, identity, api.now(), pathOrganization(request));
  } catch (error) {
    const reason = memberRefusal(error);
    if (reason) authRefusals.inc({ reason });
    if (reason === 'email_not_verified' && !identity.verification_stated) {
      request.log.warn(
        { reason, setting: 'OIDC_EMAIL_VERIFIED_CLAIM' },
        `sign-in refused: no claim ${JSON.stringify(api.config.oidc.claims.emailVerified)} says whether the provider verified the email; set OIDC_EMAIL_VERIFIED_CLAIM to the claim that does, or OIDC_TRUST_EMAIL=true for a directory whose addresses only administrators set`,
      );
    }
    throw error;
  }
}

/** The actor of a member route; the hook guarantees it is there. */
export function actorOf(request: FastifyRequest): RequestActor {
  if (!request.actor) throw new HttpError(401, 'Please sign in.');
  return request.actor;
}

/** How the journal names the actor in each organization it acts in under a support access; null when it has none. */
function supportLabels(actor: Actor & { name?: string }): Map<string, string> | null {
  const support = actor.roles.filter((a) => a.support_request !== undefined);
  if (support.length === 0) return null;
  return new Map(support.map((a) => [
    a.organization_id, `${actor.name ?? actor.member_id} (vendor support${a.break_glass ? ', break glass' : ''}, request #${a.support_request})`,
  ]));
}
