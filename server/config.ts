/**
 * Configuration from environment variables, parsed and validated once at start.
 * A bad value stops the process with a message naming the variable.
 */
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    PUBLIC_URL: z.string().url().optional(),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    OIDC_ISSUER: z.string().url().optional().or(z.literal('').transform(() => undefined)),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_AUDIENCE: z.string().optional(),
    OIDC_SCOPE: z.string().default('openid profile email offline_access'),
    SEED_DEMO: bool,
    MASTER_SECRET_FILE: z.string().optional(),
    WEB_ROOT: z.string().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    if (env.OIDC_ISSUER && (!env.OIDC_CLIENT_ID || !env.OIDC_AUDIENCE)) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'OIDC_CLIENT_ID and OIDC_AUDIENCE are required with OIDC_ISSUER' });
    }
  });

export type Env = z.infer<typeof schema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  /** Where browsers reach the portal; the built-in provider's issuer is `${publicUrl}/oidc`. */
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  oidc: { builtIn: boolean; issuer: string; clientId: string; audience: string; scope: string };
  seedDemo: boolean;
  masterSecretFile?: string;
  logLevel: Env['LOG_LEVEL'];
  /** The built web app (index.html and assets). */
  webRoot: string;
}

/** The client id and audience of the built-in provider's portal client. */
export const BUILT_IN_CLIENT_ID = 'customer-portal';
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
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    oidc: {
      builtIn,
      issuer: env.OIDC_ISSUER ?? `${publicUrl}/oidc`,
      clientId: env.OIDC_CLIENT_ID ?? BUILT_IN_CLIENT_ID,
      audience: env.OIDC_AUDIENCE ?? BUILT_IN_AUDIENCE,
      scope: env.OIDC_SCOPE,
    },
    // Demo data is for first runs: on by default outside production, never in production.
    seedDemo: env.NODE_ENV !== 'production' && (source.SEED_DEMO === undefined || env.SEED_DEMO),
    masterSecretFile: env.MASTER_SECRET_FILE,
    logLevel: env.LOG_LEVEL,
    webRoot: env.WEB_ROOT ?? 'dist/web',
  };
}
