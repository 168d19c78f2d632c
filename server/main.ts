/**
 * Starts the portal. It listens at once (/healthz alive, /readyz 503 with the reason, the rest 503
 * with Retry-After: http/starting.ts), then connects to the database, migrates and seeds demo data
 * (or makes the first operator) on a first run, and discovers an external provider, each retried with backoff until it answers
 * (startup.ts); then the app takes the server over.
 */
import path from 'node:path';
import { sql } from 'kysely';
import { demoDataWarning, loadConfig } from './config';
import { openDatabase } from './db/database';
import { migrateOnce, MigrationError } from './db/migrate';
import { buildApp, makeVerifier } from './app';
import { Readiness, describeError, retrying } from './startup';
import { IssuerMismatch } from './auth/tokens';
import { startingServer } from './http/starting';

/** After the requests' grace period, what closing the app and the database may take before the process exits anyway. */
const CLOSE_LIMIT_MS = 15_000;

async function main() {
  const config = loadConfig();
  const readiness = new Readiness();
  const { front, serverFactory, handOver, drain } = startingServer(config, readiness);
  const log = front.log;
  /** The portal's app once built (the shutdown closes it). */
  const built: { app?: Awaited<ReturnType<typeof buildApp>> } = {};

  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'portal.db'),
    timeouts: config.databaseTimeouts,
  });

  // Graceful shutdown on SIGTERM (docker stop, systemd, Kubernetes) and SIGINT (Ctrl-C; npm passes it on too, so it
  // comes twice): stop accepting, let the requests in flight finish within SHUTDOWN_GRACE_SECONDS, then close the app
  // (the notification and webhook jobs finish their turn, the archive's child process stops) and the database.
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const grace = config.shutdownGraceMs;
    log.info({ signal }, `shutting down: requests in flight have ${grace / 1000} s to finish`);
    readiness.set('shutdown', 'shutting down');
    // Should closing the app or the database hang, the process ends all the same, saying so.
    setTimeout(() => {
      log.error(`shutdown did not finish within ${(grace + CLOSE_LIMIT_MS) / 1000} s: exiting`);
      process.exit(1);
    }, grace + CLOSE_LIMIT_MS).unref();
    const cut = await drain(grace);
    if (cut > 0) log.warn(`${cut} request(s) still running after ${grace / 1000} s were cut off (SHUTDOWN_GRACE_SECONDS)`);
    await front.close(); // its server is closed already; this ends the front's own state
    await built.app?.close();
    await db.destroy();
    log.info('shut down');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(signal));

  await front.listen({ port: config.port, host: config.host });
  log.info(`Customer Portal starting on ${config.publicUrl}`);
  const demoWarning = demoDataWarning(config);
  if (demoWarning) log.warn(demoWarning);

  readiness.set('database', 'connecting to the database');
  const migrated = retrying(
    async () => {
      await sql`select 1`.execute(db);
      readiness.set('database', 'migrating');
      await migrateOnce(db, () => firstData(config, db, log));
    },
    {
      part: 'database', readiness, log,
      reasonOf: (error) => `${error instanceof MigrationError ? 'database migration failed' : 'database unreachable'}: ${describeError(error)}`,
    },
  );
  // The provider is asked while the database is: neither waits for the other to answer first.
  if (!config.oidc.builtIn) readiness.set('identity provider', 'discovering the identity provider');
  const verifier = config.oidc.builtIn
    ? undefined
    : retrying(() => makeVerifier(config, db), {
        part: 'identity provider', readiness, log,
        reasonOf: (error) => (error instanceof IssuerMismatch ? error.message : `identity provider unreachable: ${describeError(error)}`),
      });
  await migrated;
  if (config.env === 'production' && config.oidc.builtIn) {
    // Loaded only here: what the demo publishes, never its seeders.
    const demo = await (await import('./demo/published')).accountsWithDemoPassword(db);
    if (demo.length > 0) {
      throw new Error(`Refusing to start with NODE_ENV=production: the database holds demo accounts that sign in with the published demo password (${demo.join(', ')}). `
        + 'Start a production portal on a database of its own (DATA_DIR, DATABASE_URL), or remove those accounts.');
    }
  }
  readiness.set('app', 'starting');
  const app = await buildApp({ config, db, verifier: await verifier, serverFactory });
  built.app = app;
  await app.ready();
  handOver();
  readiness.clear('app');
  log.info(`Customer Portal ready on ${config.publicUrl} (sign-in: ${config.oidc.builtIn ? 'built-in provider' : config.oidc.issuer})`);
}

/**
 * What an empty database gets at its first start, under the migration lock: the demo data outside production, or
 * the first operator that OPERATOR_ADMIN_EMAIL names (modules/organizations/first-operator.ts). Each is loaded only
 * when it applies: production never loads the demo data or what makes it.
 */
async function firstData(config: ReturnType<typeof loadConfig>, db: ReturnType<typeof openDatabase>, log: { info(message: string): void }) {
  if (config.seedDemo) return (await import('./demo/seed')).seedDemoData(db, new Date());
  const operator = config.firstOperator;
  if (operator && (await (await import('./modules/organizations/first-operator')).createFirstOperator(db, operator, new Date()))) {
    log.info(`Created the operator organization ${operator.name} with ${operator.email} as its supervisor and administrator (OPERATOR_ADMIN_EMAIL): sign in as that person to set up the rest.`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
