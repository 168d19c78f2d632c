/**
 * The built-in OpenID Connect provider (oidc-provider), mounted under /oidc, with accounts in
 * table `accounts` and its state in `oidc_payloads`. It serves exactly one client, the portal's
 * own web app: code flow with PKCE, refresh tokens, JWT access tokens for the portal API.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Configuration, Interaction, errors as ProviderErrors } from 'oidc-provider';
import type { Config } from '../../config';
import { databaseHealth, type Db } from '../../db/database';
import type { AccountRow } from '../../db/schema';
import { KyselyAdapter } from './adapter';
import { loadProviderKeys } from './keys';
import { hashPassword, verifyPassword } from './passwords';
import { SignInLimits } from './sign-in-limits';
import { passwordSignIns } from '../../metrics';
import { serverFile } from '../../paths';
import {
  LOGOUT_SCRIPT, LOGOUT_SCRIPT_PATH, STYLESHEET_PATH, TOO_MANY_ATTEMPTS, renderLoginPage, renderLogoutPage, renderMessagePage,
} from './login-page';

const PREFIX = '/oidc';
const DAY = 24 * 60 * 60;
/** The API's one scope. Resource-server scopes must differ from the OpenID ones. */
const API_SCOPE = 'portal';
const STYLESHEET = readFileSync(serverFile('auth/idp/login.css'), 'utf8');

function findAccountRow(db: Db, accountId: string) {
  return db.selectFrom('accounts').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** The person's claims, for the ID token, userinfo and (see extraTokenClaims) the access token. */
function personClaims(row: AccountRow) {
  return {
    email: row.email,
    email_verified: row.email_verified === 1,
    name: row.name,
    given_name: row.given_name ?? undefined,
    family_name: row.family_name ?? undefined,
  };
}

type Errors = typeof ProviderErrors;

function providerConfiguration(config: Config, db: Db, keys: { privateJwks: { keys: object[] }; cookieKeys: string[] }, errors: Errors): Configuration {
  const { publicUrl } = config;
  // Resource indicators must be absolute URIs, the audience need not be: the API's URL names it.
  const resource = `${publicUrl}/api`;
  const backToPortal = { href: `${publicUrl}/login`, text: 'Back to the portal' };

  return {
    adapter: (model) => new KyselyAdapter(db, model),
    jwks: keys.privateJwks,
    cookies: { keys: keys.cookieKeys },
    clients: [
      {
        client_id: config.oidc.clientId,
        client_name: 'Customer Portal',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${publicUrl}/auth/callback`, `${publicUrl}/auth/silent`],
        post_logout_redirect_uris: [`${publicUrl}/logout`, `${publicUrl}/login`],
        // The only signing key is ES256 (keys.ts); the default would be RS256.
        id_token_signed_response_alg: 'ES256',
      },
    ],
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // The web app reads the person from the ID token and does not call userinfo.
    conformIdTokenClaims: false,
    // The web app is served from the portal's own origin.
    clientBasedCORS: (_ctx, origin) => origin === new URL(publicUrl).origin,
    pkce: { required: () => true },
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 15 * 60,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: 14 * DAY,
      Grant: 14 * DAY,
      RefreshToken: (ctx, token) => {
        // A rotated refresh token keeps what is left of its predecessor's life: 14 days from sign-in.
        const rotated = ctx?.oidc?.entities.RotatedRefreshToken;
        return rotated && !token.isSenderConstrained() ? rotated.remainingTTL : 14 * DAY;
      },
    },
    interactions: { url: (_ctx, interaction) => `${PREFIX}/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const row = await findAccountRow(db, sub);
      if (!row) return undefined;
      return { accountId: row.account_id, claims: async () => ({ sub: row.account_id, ...personClaims(row) }) };
    },
    // The portal's own web app needs no consent screen: the grant always covers what it asks for.
    async loadExistingGrant(ctx) {
      const { client, session, result, provider } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = result?.consent?.grantId || session.grantIdFor(client.clientId);
      const found = grantId ? await provider.Grant.find(grantId) : undefined;
      const grant = found?.accountId === session.accountId ? found : new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(ctx.oidc.requestParamOIDCScopes);
      grant.addOIDCClaims(ctx.oidc.requestParamClaims);
      grant.addResourceScope(resource, API_SCOPE);
      await grant.save();
      return grant;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Every token lives with the sign-in session, offline_access or not: signing out (RP-initiated logout)
    // revokes the grant and with it every refresh token. The library's default keeps an offline_access grant
    // (which prompt=consent obtains) through logout, so a sign-out left a refresh token working for 14 days.
    expiresWithSession: async () => true,
    // The API reads the person from the access token alone (server/auth/tokens.ts).
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const row = await findAccountRow(db, token.accountId);
      return row ? personClaims(row) : undefined;
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = renderMessagePage({ title: 'Sign-in problem', message: out.error_description ?? out.error, link: backToPortal });
    },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        async getResourceServerInfo(_ctx, indicator) {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPE,
            audience: config.oidc.audience,
            accessTokenTTL: 15 * 60,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
      // The web app revokes its refresh token on sign-out (RFC 7009); revoking one revokes its whole grant.
      // A client may revoke only its own tokens (the one client is public: no client authentication to check).
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          // A verified id_token_hint means the portal itself asked: no second question.
          ctx.body = renderLogoutPage(form, { autoSubmit: Boolean(ctx.oidc.entities.IdTokenHint) });
        },
        async postLogoutSuccessSource(ctx) {
          ctx.body = renderMessagePage({ title: 'Signed out', message: 'You are signed out.', link: { href: `${publicUrl}/login`, text: 'Sign in again' } });
        },
      },
    },
  };
}

/** The provider and the library's error classes, once loaded. */
interface Loaded {
  provider: Provider;
  errors: Errors;
  callback: ReturnType<Provider['callback']>;
}

async function createProvider(app: FastifyInstance): Promise<Loaded> {
  const { config, db } = app;
  const [{ default: Provider, errors }, keys] = await Promise.all([import('oidc-provider'), loadProviderKeys(db)]);
  const provider = new Provider(config.oidc.issuer, providerConfiguration(config, db, keys, errors));
  // Behind a TLS-terminating proxy the issuer is https while the socket is not: X-Forwarded-Proto
  // is believed when proxies are configured (TRUST_PROXY), as Fastify believes X-Forwarded-For.
  provider.proxy = config.trustProxy !== false;
  // The provider turns its own failures into an error page; the log is where operators see them. A lost
  // database is logged once for the whole outage (db/health.ts), not with a stack per sign-in.
  provider.on('server_error', (_ctx, error) => {
    if (!databaseHealth(db).failureOf(error)) app.log.error({ err: error }, 'built-in identity provider error');
  });
  return { provider, errors, callback: provider.callback() };
}

let dummyHash: Promise<string> | undefined;

/** The account id for these credentials, or undefined. */
async function checkCredentials(db: Db, email: string, password: string): Promise<string | undefined> {
  const row = email
    ? await db.selectFrom('accounts').select(['account_id', 'password_hash']).where('email', '=', email).executeTakeFirst()
    : undefined;
  // An unknown email costs one hash too, so the response time does not tell which emails exist.
  dummyHash ??= hashPassword('no such account');
  const ok = await verifyPassword(password, row?.password_hash ?? (await dummyHash));
  return ok ? row?.account_id : undefined;
}

function sendHtml(reply: FastifyReply, html: string, status = 200) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

type InteractionRequest = FastifyRequest<{ Params: { uid: string }; Body: Record<string, string> | undefined }>;

/** The sign-in page and its form: Fastify routes, so helmet's headers and the rate limit apply. */
function interactionRoutes(load: () => Promise<Loaded>, config: Config) {
  const expired = () => renderMessagePage({
    title: 'Sign-in expired',
    message: 'This sign-in page has expired. Go back to the portal and sign in again.',
    link: { href: `${config.publicUrl}/login`, text: 'Back to the portal' },
  });

  /** The interaction of this browser (its cookie), if it is the one in the URL. */
  async function loadInteraction(req: InteractionRequest, reply: FastifyReply): Promise<Interaction | undefined> {
    const { provider, errors } = await load();
    try {
      const interaction = await provider.interactionDetails(req.raw, reply.raw);
      if (interaction.uid === req.params.uid) return interaction;
    } catch (error) {
      if (!(error instanceof errors.SessionNotFound)) throw error;
    }
    sendHtml(reply, expired(), 400);
    return undefined;
  }

  return async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    scope.get(`${PREFIX}/interaction/:uid`, async (req: InteractionRequest, reply) => {
      const interaction = await loadInteraction(req, reply);
      if (!interaction) return reply;
      const { provider } = await load();
      if (interaction.prompt.name === 'consent') {
        // Only reached when the client asks for prompt=consent: the grant already covers it.
        const returnTo = await provider.interactionResult(req.raw, reply.raw, { consent: { grantId: interaction.grantId } });
        return reply.redirect(returnTo, 303);
      }
      const hint = typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : '';
      return sendHtml(reply, renderLoginPage({ action: `${PREFIX}/interaction/${interaction.uid}/login`, email: hint }));
    });

    // Against password guessing and spraying (DECISIONS.md "Sign-in"). The client address is
    // Fastify's req.ip: X-Forwarded-For counts only from the proxies TRUST_PROXY names.
    const limits = new SignInLimits();

    scope.post(`${PREFIX}/interaction/:uid/login`, async (req: InteractionRequest, reply) => {
      const interaction = await loadInteraction(req, reply);
      if (!interaction) return reply;
      const email = String(req.body?.email ?? '').trim().toLowerCase();
      const action = `${PREFIX}/interaction/${interaction.uid}/login`;
      const attempt = limits.begin(req.ip, email);
      if (!attempt.allowed) {
        passwordSignIns.inc({ outcome: 'limited' });
        reply.header('retry-after', String(attempt.retryAfterSeconds));
        return sendHtml(reply, renderLoginPage({ action, email, error: TOO_MANY_ATTEMPTS }), 429);
      }
      const accountId = await checkCredentials(scope.db, email, String(req.body?.password ?? ''));
      passwordSignIns.inc({ outcome: accountId ? 'ok' : 'failed' });
      if (!accountId) return sendHtml(reply, renderLoginPage({ action, email, failed: true }), 401);
      attempt.succeeded();
      const { provider } = await load();
      const returnTo = await provider.interactionResult(req.raw, reply.raw, { login: { accountId } }, { mergeWithLastSubmission: false });
      return reply.redirect(returnTo, 303);
    });
  };
}

/** Everything else under /oidc goes to oidc-provider untouched: it reads the body stream itself. */
function passthroughRoutes(load: () => Promise<Loaded>) {
  return async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const { callback } = await load();
      const raw = req.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      // The provider routes relative to its mount point and rebuilds the prefix from originalUrl.
      const rest = (raw.url ?? '').slice(PREFIX.length);
      raw.url = rest.startsWith('/') ? rest : `/${rest}`;
      reply.hijack();
      callback(raw, reply.raw);
    };
    scope.all(PREFIX, handler);
    scope.all(`${PREFIX}/*`, handler);
  };
}

/**
 * The built-in provider's routes. oidc-provider, with Koa under it, took a sixth of the portal's start (about 300 ms
 * of module loading on a slow machine), so it is loaded once the portal is ready, not before: the API answers at
 * once, and a sign-in that comes first waits for the load (docs/decisions.md "Start-up and metrics").
 */
export async function builtInProvider(app: FastifyInstance): Promise<void> {
  let loading: Promise<Loaded> | undefined;
  // A failed load is forgotten, so the next sign-in tries again instead of getting the same failure for good.
  const load = () => (loading ??= createProvider(app).catch((error: unknown) => {
    loading = undefined;
    throw error;
  }));
  let closed = false;
  app.addHook('onReady', async () => {
    setImmediate(() => load().catch((error: unknown) => {
      if (!closed) app.log.error({ err: error }, 'the built-in identity provider could not be loaded');
    }));
  });
  app.addHook('onClose', async () => {
    closed = true;
  });

  app.get(STYLESHEET_PATH, (_req, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLESHEET));
  app.get(LOGOUT_SCRIPT_PATH, (_req, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOGOUT_SCRIPT));

  await app.register(interactionRoutes(load, app.config));
  await app.register(passthroughRoutes(load));
}
