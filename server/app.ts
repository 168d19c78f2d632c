/**
 * Builds the Fastify instance: plugins first, then the auth hook, then each module's routes.
 * No business logic lives here.
 */
import Fastify, { type FastifyInstance, type FastifyServerFactory } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { createLocalJWKSet } from 'jose';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { trustProxyOption, type Config } from './config';
import { databaseHealth, type Db } from './db/database';
import { createVerifier, discoverVerifier, type TokenVerifier } from './auth/tokens';
import { loadProviderKeys } from './auth/idp/keys';
import { registerAuth } from './auth/hook';
import { registerKeptAnswers } from './http/kept-answers';
import { registerTargetGuard } from './access/target-guard';
import { errorHandler } from './http/error-handler';
import { registerJsonBodyParser } from './http/json-body';
import { registerApiHeaders } from './http/api-headers';
import { keepingValidatorCompiler, parseQuerystring } from './http/validation-cache';
import { registerErrorResponses, registerOpenApi } from './http/openapi';
import { registerOperations } from './http/operations';
import { registerWebApp } from './http/web-app';
import { loggerOptions, OneLinePerRequest } from './http/logging';
import { answerRequestId, registerRequestIdHeader, requestIdOf } from './http/request-id';
import { builtInProvider } from './auth/idp/provider';
import { profileRoutes } from './modules/profile/routes';
import { organizationRoutes } from './modules/organizations/routes';
import { certificateRoutes } from './modules/certificates/routes';
import { pendingRoutes } from './modules/pending/routes';
import { licenseRoutes } from './modules/licenses/routes';
import { secretRoutes } from './modules/admin/secret-routes';
import { MasterSecret, provideSecretFromFile } from './modules/admin/master-secret';
import { memberRoutes } from './modules/members/routes';
import { invitationRoutes } from './modules/invitations/routes';
import { accessReviewRoutes } from './modules/access-review/routes';
import { journalRoutes } from './modules/audit/routes';
import { resourceRoutes } from './modules/resources/routes';
import { pistonRoutes } from './modules/piston/routes';
import { withFastPoll } from './modules/piston/fast-poll';
import { tokenRoutes } from './modules/tokens/routes';
import { overviewRoutes } from './modules/overview/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { webhookRoutes } from './modules/webhooks/routes';
import { apiKeyRoutes } from './modules/api-keys/routes';
import { supportAccessRoutes } from './modules/support-access/routes';
import { registerNotificationWorker } from './modules/notifications/worker';
import { registerAlertMetrics } from './modules/notifications/alert-metrics';

export interface AppOptions {
  config: Config;
  db: Db;
  /** The clock; tests pass one they can move. */
  now?: () => Date;
  /** Replaces token verification (tests of an external provider; main.ts passes the one it discovered, retrying). */
  verifier?: TokenVerifier;
  /** The HTTP server to answer on, already listening (main.ts: the start-up's, http/starting.ts). */
  serverFactory?: FastifyServerFactory;
  logger?: boolean | object;
  /** Where the portal's own logger writes (tests read the log lines); stdout by default. */
  logStream?: { write(line: string): void };
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    now: () => Date;
  }
}

export async function makeVerifier(config: Config, db: Db): Promise<TokenVerifier> {
  if (!config.oidc.builtIn) return discoverVerifier(config.oidc);
  const { publicJwks } = await loadProviderKeys(db);
  // The built-in provider types its access tokens at+jwt (RFC 9068); its ID tokens are untyped.
  return createVerifier({ issuer: config.oidc.issuer, audience: config.oidc.audience, keys: createLocalJWKSet(publicJwks), typ: 'at+jwt' });
}

/** Sources the browser may reach besides the portal: an external provider's endpoints. */
function providerOrigins(config: Config): string[] {
  return config.oidc.builtIn ? [] : [new URL(config.oidc.issuer).origin];
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const serverFactory = options.serverFactory;
  /** This app once built: main.ts hands the server over only then (http/starting.ts). */
  const built: { app?: FastifyInstance } = {};
  const requestId = requestIdOf(config);
  const app = Fastify({
    // Codes, interaction ids, tokens, cookies and secrets never reach the log (http/logging.ts).
    logger: options.logger ?? loggerOptions(config, options.logStream),
    // One line per request instead of Fastify's two (http/logging.ts).
    logController: new OneLinePerRequest(),
    // A trusted proxy's X-Request-Id, else a UUID: in every log line of the request and in its answer (http/request-id.ts).
    genReqId: requestId,
    // URL-encoded distinguished names are often several hundred characters long. Query strings are
    // parsed and validated once per text (http/validation-cache.ts).
    routerOptions: { maxParamLength: 4096, querystringParser: parseQuerystring },
    bodyLimit: 256 * 1024,
    // A path that does not decode (%zz, %c0%ae) or a too long id: the same JSON error body as every other refusal.
    // It comes before the hooks: the request id is answered here too.
    frameworkErrors: (error, request, reply) => {
      answerRequestId(reply.raw, request.id);
      return errorHandler(error, request, reply);
    },
    // X-Forwarded-For names the client only when it comes from a configured proxy (TRUST_PROXY).
    trustProxy: trustProxyOption(config.trustProxy),
    // The server main.ts listens on answers a gateway's unchanged poll before Fastify (modules/piston/fast-poll.ts).
    ...(serverFactory ? { serverFactory: ((handler, opts) => serverFactory(withFastPoll(handler, () => built.app, requestId), opts)) satisfies FastifyServerFactory } : {}),
  }).withTypeProvider<ZodTypeProvider>();
  registerRequestIdHeader(app);

  app.setValidatorCompiler(keepingValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  // A lost database and its return are logged by the app: one line each (db/health.ts).
  databaseHealth(db).log = app.log;
  app.decorate('config', config);
  app.decorate('now', options.now ?? (() => new Date()));
  // The master secret lives in this process only (DECISIONS.md "Master secret").
  app.decorate('masterSecret', new MasterSecret());
  await provideSecretFromFile(app);
  app.setErrorHandler(errorHandler);
  registerJsonBodyParser(app);

  const extra = providerOrigins(config);
  await app.register(helmet, {
    enableCSPNonces: true,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'", ...extra],
        formAction: ["'self'", ...extra],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // The built-in provider's login page posts to itself and redirects back to the portal.
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, { global: false });
  await registerOpenApi(app);

  registerOperations(app);
  if (config.oidc.builtIn) await app.register(builtInProvider);

  const verifier = options.verifier ?? (await makeVerifier(config, db));
  await app.register(async (api) => {
    registerApiHeaders(api);
    registerErrorResponses(api);
    registerAuth(api, verifier);
    registerTargetGuard(api);
    registerKeptAnswers(api);
    await api.register(profileRoutes);
    await api.register(organizationRoutes);
    await api.register(certificateRoutes);
    await api.register(pendingRoutes);
    await api.register(licenseRoutes);
    await api.register(secretRoutes);
    await api.register(memberRoutes);
    await api.register(invitationRoutes);
    await api.register(accessReviewRoutes);
    await api.register(journalRoutes);
    await api.register(resourceRoutes);
    await api.register(pistonRoutes);
    await api.register(tokenRoutes);
    await api.register(overviewRoutes);
    await api.register(notificationRoutes);
    await api.register(webhookRoutes);
    await api.register(apiKeyRoutes);
    await api.register(supportAccessRoutes);
  }, { prefix: '/api' });
  registerAlertMetrics(app);
  if (config.notifications.worker) registerNotificationWorker(app);

  await registerWebApp(app);
  built.app = app;
  return app;
}
