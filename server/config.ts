/**
 * Configuration from environment variables, parsed and validated once at start.
 * A bad value stops the process with a message naming the variable.
 */
import net from 'node:net';
import { z } from 'zod';
import type { ClientSettings } from '../common/schemas/profile';
import { DEFAULT_CLAIMS, type ClaimMapping } from './auth/claims';
import type { DatabaseTimeouts } from './db/pg-pool';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Seconds as SHUTDOWN_GRACE_SECONDS takes them (0.5 allowed), 0 for no limit, at most an hour; unset or empty: the default. In milliseconds. */
const SECONDS_LIMIT = 'must be a number of seconds, 0 (no limit) to 3600';
const limitSeconds = (fallback: number) => z
  .string()
  .optional()
  .transform((v) => v?.trim() || String(fallback))
  .pipe(z.string().regex(/^\d+(\.\d+)?$/, SECONDS_LIMIT).transform(Number).refine((n) => n <= 3600, SECONDS_LIMIT))
  .transform((n) => Math.round(n * 1000));

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry) || net.isIP(entry)) return true;
  const match = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  if (!match) return false;
  const family = net.isIP(match[1]);
  return family !== 0 && Number(match[2]) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies may name the client in X-Forwarded-For (Fastify's `trustProxy`): none (the
 * default), a hop count, or a list of addresses and CIDRs. Trusting any sender is not offered:
 * a client could then pick its own address and step around the sign-in limits.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    const text = value?.trim() ?? '';
    if (text === '' || text === 'false' || text === '0') return false;
    if (/^\d+$/.test(text)) {
      if (Number(text) <= 10) return Number(text);
      ctx.addIssue({ code: 'custom', message: 'a hop count must be 1 to 10' });
      return z.NEVER;
    }
    const entries = text.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isAddressOrCidr(entry));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a hop count or a comma-separated list of proxy addresses or CIDRs; not an address: ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

/**
 * A claim of the provider's tokens or userinfo answer: a name (`upn`; a namespaced one such as
 * Auth0's `https://example.com/email`), or a path into nested claims (`profile.email`). The
 * whole text is tried as one name first, then as a path (auth/claims.ts).
 */
const CLAIM_PATH = /^[A-Za-z_][A-Za-z0-9_.:/-]{0,127}$/;
const CLAIM_MESSAGE = 'must be a claim name or a dotted path to one (letters, digits, _ . : / -)';

const claimPath = z
  .string()
  .transform((v) => v.trim())
  .pipe(z.union([z.literal('').transform(() => undefined), z.string().regex(CLAIM_PATH, CLAIM_MESSAGE)]))
  .optional();

/** Claims tried in order, comma-separated: the first that holds an address is the email. */
const claimList = z
  .string()
  .optional()
  .transform((value, ctx): string[] | undefined => {
    const entries = (value ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    if (entries.length === 0) return undefined;
    const bad = entries.filter((entry) => !CLAIM_PATH.test(entry));
    if (bad.length > 0) {
      ctx.addIssue({ code: 'custom', message: `${CLAIM_MESSAGE}, comma-separated; not one: ${bad.map((b) => JSON.stringify(b)).join(', ')}` });
      return z.NEVER;
    }
    return entries;
  });

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    // Its default depends on the demo data (loadConfig): an empty value is no choice.
    HOST: z.string().optional().transform((v) => v?.trim() || undefined),
    PUBLIC_URL: z.string().url().optional(),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    // PostgreSQL's limits (db/pg-pool.ts): a lost or frozen database fails a request within seconds.
    DATABASE_CONNECT_TIMEOUT_SECONDS: limitSeconds(5),
    DATABASE_STATEMENT_TIMEOUT_SECONDS: limitSeconds(5),
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: limitSeconds(10),
    OIDC_ISSUER: z.string().url().optional().or(z.literal('').transform(() => undefined)),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_AUDIENCE: z.string().optional(),
    OIDC_SCOPE: z.string().default('openid profile email offline_access'),
    OIDC_EMAIL_CLAIM: claimList,
    OIDC_EMAIL_VERIFIED_CLAIM: claimPath,
    OIDC_NAME_CLAIM: claimPath,
    OIDC_GIVEN_NAME_CLAIM: claimPath,
    OIDC_FAMILY_NAME_CLAIM: claimPath,
    OIDC_TRUST_EMAIL: bool,
    TRUST_PROXY: trustProxy,
    SEED_DEMO: bool,
    // The first operator on an empty database (modules/organizations/first-operator.ts); lower case, as tokens' emails.
    OPERATOR_ADMIN_EMAIL: z.string().trim().toLowerCase().regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address').optional().or(z.literal('').transform(() => undefined)),
    OPERATOR_NAME: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').default('Operator'),
    MASTER_SECRET_FILE: z.string().optional(),
    WEB_ROOT: z.string().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Notifications and webhooks (issue 13).
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional().or(z.literal('').transform(() => undefined)),
    MAIL_FROM: z.string().optional().transform((v) => v?.trim() || undefined),
    WEBHOOK_ALLOW_PRIVATE: bool,
    METRICS_TOKEN: z.string().optional().transform((v) => v?.trim() || undefined).pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    NOTIFICATIONS: z.enum(['on', 'off']).optional(),
    // Requests per minute one organization API key may make, counted over every instance (issue 32).
    API_KEY_RATE_LIMIT: z.coerce.number().int('must be a whole number of requests a minute').min(1).max(1_000_000).default(600),
    // Under Docker's 10 s between its SIGTERM and SIGKILL, with room to close the rest (docs/decisions.md "Running in production").
    SHUTDOWN_GRACE_SECONDS: z
      .string()
      .optional()
      .transform((v) => v?.trim() || '8')
      .pipe(z.string().regex(/^\d+(\.\d+)?$/, 'must be a number of seconds, 0 to 3600').transform(Number))
      .pipe(z.number().max(3600, 'must be a number of seconds, 0 to 3600')),
  })
  .superRefine((env, ctx) => {
    if (env.OIDC_ISSUER && (!env.OIDC_CLIENT_ID || !env.OIDC_AUDIENCE)) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'OIDC_CLIENT_ID and OIDC_AUDIENCE are required with OIDC_ISSUER' });
    }
    // ID tokens are addressed to the client: an API that took the client id as its audience
    // would accept them as access tokens.
    if (env.OIDC_ISSUER && env.OIDC_AUDIENCE && env.OIDC_AUDIENCE === env.OIDC_CLIENT_ID) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_AUDIENCE'], message: 'must differ from OIDC_CLIENT_ID (ID tokens name the client id as their audience)' });
    }
    const externalOnly = 'applies to an external provider only: set OIDC_ISSUER too';
    for (const key of CLAIM_SETTINGS) {
      if (!env.OIDC_ISSUER && env[key]) ctx.addIssue({ code: 'custom', path: [key], message: externalOnly });
    }
    if (!env.OIDC_ISSUER && env.OIDC_TRUST_EMAIL) ctx.addIssue({ code: 'custom', path: ['OIDC_TRUST_EMAIL'], message: externalOnly });
    // Demo accounts share one published password: production never serves them.
    if (env.NODE_ENV === 'production' && env.SEED_DEMO) {
      ctx.addIssue({ code: 'custom', path: ['SEED_DEMO'], message: 'demo data (accounts with a published password) is refused with NODE_ENV=production: remove SEED_DEMO or set it to false' });
    }
  });

type Env = z.infer<typeof schema>;

/** The settings that map an external provider's claims (the built-in provider's are fixed). */
const CLAIM_SETTINGS = ['OIDC_EMAIL_CLAIM', 'OIDC_EMAIL_VERIFIED_CLAIM', 'OIDC_NAME_CLAIM', 'OIDC_GIVEN_NAME_CLAIM', 'OIDC_FAMILY_NAME_CLAIM'] as const;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  /** Where it listens: HOST, else 127.0.0.1 with demo data and 0.0.0.0 without. */
  host: string;
  /** Whether HOST was set (the demo warning says how to change the address otherwise). */
  hostChosen: boolean;
  /** Where browsers reach the portal; the built-in provider's issuer is `${publicUrl}/oidc`. */
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL: connect, statement and idle-in-transaction limits (SQLite waits 5 s for a lock, fixed). */
  databaseTimeouts: DatabaseTimeouts;
  oidc: {
    builtIn: boolean;
    issuer: string;
    clientId: string;
    audience: string;
    scope: string;
    /** Where the person's email, its verification and name are read (DECISIONS.md "Sign-in"). */
    claims: ClaimMapping;
    /** Take every email of the provider as verified (a provider without such a claim). */
    trustEmail: boolean;
  };
  /** Fastify's `trustProxy`: false, a hop count, or proxy addresses and CIDRs. */
  trustProxy: false | number | string[];
  seedDemo: boolean;
  /** The operator organization and its first person, made on an empty database (OPERATOR_ADMIN_EMAIL). */
  firstOperator?: { name: string; email: string };
  masterSecretFile?: string;
  logLevel: Env['LOG_LEVEL'];
  /** The built web app (index.html and assets). */
  webRoot: string;
  notifications: {
    /** Run the scan, the dispatcher, mails and webhook deliveries in this process (off in tests, which run them by hand). */
    worker: boolean;
    /** Where mails go (nodemailer's URL form); none: notices in the portal only. */
    smtpUrl?: string;
    mailFrom: string;
    /** Webhook endpoints on loopback and private addresses are allowed (tests, closed networks). */
    allowPrivateWebhooks: boolean;
  };
  /** Organization API keys (named so that no setting of the config reads like a secret: config.test.ts). */
  automation: {
    /** Requests a minute per API key (API_KEY_RATE_LIMIT), all instances together. */
    requestsPerMinute: number;
  };
  /** Bearer token /metrics asks for; none: /metrics is open, except in production, where it is off (http/operations.ts). */
  metricsToken?: string;
  /** How long requests in flight may take to finish after SIGTERM or SIGINT, in milliseconds (server/main.ts). */
  shutdownGraceMs: number;
}

/**
 * Fastify's `trustProxy` for the setting. Fastify itself trusts nobody for a bare number, so a
 * hop count becomes proxy-addr's rule: the nearest `hops` addresses are proxies, whoever they are.
 */
export function trustProxyOption(value: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** The client id and audience of the built-in provider's portal client. */
const BUILT_IN_CLIENT_ID = 'customer-portal';
export const BUILT_IN_AUDIENCE = 'customer-portal-api';

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'environment'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const builtIn = !env.OIDC_ISSUER;
  // Demo data is for first runs: on by default outside production, never in production (refused above).
  const seedDemo = env.NODE_ENV !== 'production' && (source.SEED_DEMO === undefined || env.SEED_DEMO);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    // Demo accounts and their known password stay on this machine unless HOST says otherwise.
    host: env.HOST ?? (seedDemo ? '127.0.0.1' : '0.0.0.0'),
    hostChosen: env.HOST !== undefined,
    publicUrl,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    databaseTimeouts: {
      connectMs: env.DATABASE_CONNECT_TIMEOUT_SECONDS,
      statementMs: env.DATABASE_STATEMENT_TIMEOUT_SECONDS,
      idleInTransactionMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS,
    },
    oidc: {
      builtIn,
      issuer: env.OIDC_ISSUER ?? `${publicUrl}/oidc`,
      clientId: env.OIDC_CLIENT_ID ?? BUILT_IN_CLIENT_ID,
      audience: env.OIDC_AUDIENCE ?? BUILT_IN_AUDIENCE,
      scope: env.OIDC_SCOPE,
      claims: {
        email: env.OIDC_EMAIL_CLAIM ?? DEFAULT_CLAIMS.email,
        emailVerified: env.OIDC_EMAIL_VERIFIED_CLAIM ?? DEFAULT_CLAIMS.emailVerified,
        name: env.OIDC_NAME_CLAIM ?? DEFAULT_CLAIMS.name,
        givenName: env.OIDC_GIVEN_NAME_CLAIM ?? DEFAULT_CLAIMS.givenName,
        familyName: env.OIDC_FAMILY_NAME_CLAIM ?? DEFAULT_CLAIMS.familyName,
      },
      trustEmail: env.OIDC_TRUST_EMAIL,
    },
    trustProxy: env.TRUST_PROXY,
    seedDemo,
    firstOperator: env.OPERATOR_ADMIN_EMAIL ? { name: env.OPERATOR_NAME, email: env.OPERATOR_ADMIN_EMAIL } : undefined,
    masterSecretFile: env.MASTER_SECRET_FILE,
    logLevel: env.LOG_LEVEL,
    webRoot: env.WEB_ROOT ?? 'dist/web',
    notifications: {
      worker: (env.NOTIFICATIONS ?? (env.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
      smtpUrl: env.SMTP_URL,
      mailFrom: env.MAIL_FROM ?? `Customer Portal <no-reply@${new URL(publicUrl).hostname}>`,
      allowPrivateWebhooks: env.WEBHOOK_ALLOW_PRIVATE,
    },
    automation: { requestsPerMinute: env.API_KEY_RATE_LIMIT },
    metricsToken: env.METRICS_TOKEN,
    shutdownGraceMs: Math.round(env.SHUTDOWN_GRACE_SECONDS * 1000),
  };
}

/**
 * The warning at start when the portal serves the demo accounts, or undefined without them:
 * who can reach them, and how to change that.
 */
export function demoDataWarning(config: Config): string | undefined {
  if (!config.seedDemo) return undefined;
  const accounts = 'serving demo accounts with the published password (SEED_DEMO, on by default outside production)';
  return config.hostChosen
    ? `${accounts} on ${config.host} as HOST says; set SEED_DEMO=false for real data`
    : `${accounts}, so listening on 127.0.0.1 only: set HOST (e.g. HOST=0.0.0.0) to listen elsewhere, or SEED_DEMO=false for real data`;
}

/** What the web app needs to start the sign-in: GET /api/config, and index.html (http/web-app.ts). */
export const clientSettingsOf = (config: Config): ClientSettings => ({
  authority: config.oidc.issuer,
  client_id: config.oidc.clientId,
  scope: config.oidc.scope,
  audience: config.oidc.audience,
});
