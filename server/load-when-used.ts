/**
 * A package loaded the first time it is used, not when the portal starts: most of a cold start is loading modules, and
 * some are needed only by one setting (node-postgres with DATABASE_URL, nodemailer with SMTP_URL; docs/decisions.md
 * "Start-up and metrics"). Synchronous, for callers that are (opening a database, making a mail transport).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function loadWhenUsed<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
