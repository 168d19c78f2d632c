/**
 * The auth hook of /api: every route needs a signed-in member unless it says otherwise in
 * `config.auth` ('public' for sign-in plumbing, 'self' for routes that check their own tokens).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveActor, type RequestActor } from './actor';
import { cachingVerifier, type TokenVerifier } from './tokens';
import { HttpError, unauthorized } from '../errors';
import { authRefusals } from '../metrics';
import { memberRefusal, tokenRefusal } from './refusals';

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
  const header = request.headers.authorization;
  const match = header && /^Bearer ([A-Za-z0-9\-_.~+/]+=*)$/.exec(header);
  return match ? match[1] : null;
}

export function registerAuth(api: FastifyInstance, verifier: TokenVerifier): void {
  api.decorateRequest('actor', null);
  api.decorate('tokenVerifier', cachingVerifier(verifier));
  api.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth ?? 'member';
    if (mode !== 'member') return;
    const token = bearerToken(request);
    if (!token) {
      authRefusals.inc({ reason: 'missing_token' });
      throw unauthorized();
    }
    request.actor = await authenticateMember(api, request, token);
  });
}

/** Verifies a person's access token and resolves the member behind it (refusing bans). */
export async function authenticateMember(api: FastifyInstance, request: FastifyRequest, token: string): Promise<RequestActor> {
  let identity;
  try {
    identity = await api.tokenVerifier.verify(token);
  } catch (error) {
    request.log.info({ reason: (error as Error).message }, 'bearer token refused');
    authRefusals.inc({ reason: tokenRefusal(error) });
    throw unauthorized('Your session is not valid any more. Please sign in again.');
  }
  try {
    return await resolveActor(api.db, identity, api.now());
  } catch (error) {
    const reason = memberRefusal(error);
    if (reason) authRefusals.inc({ reason });
    throw error;
  }
}

/** The actor of a member route; the hook guarantees it is there. */
export function actorOf(request: FastifyRequest): RequestActor {
  if (!request.actor) throw new HttpError(401, 'Please sign in.');
  return request.actor;
}
