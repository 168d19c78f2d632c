/** Starts the portal: configuration, database, migrations, demo data on first run, then the server. */
import path from 'node:path';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { buildApp } from './app';

async function main() {
  const config = loadConfig();
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'portal.db'),
    onConnectionError: (error) => console.error(`Database connection lost (the pool reconnects): ${error.message}`),
  });
  await migrateToLatest(db);
  // Loaded only when it seeds: production never loads the demo data or what makes it.
  if (config.seedDemo) await (await import('./demo/seed')).seedDemoData(db, new Date());
  const app = await buildApp({ config, db });

  // Graceful shutdown: stop accepting, finish what is in flight, close the database.
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      await app.close();
      await db.destroy();
      process.exit(0);
    });
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Customer Portal on ${config.publicUrl} (sign-in: ${config.oidc.builtIn ? 'built-in provider' : config.oidc.issuer})`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
