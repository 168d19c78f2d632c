/**
 * node-postgres, loaded when a PostgreSQL database is opened: a portal on SQLite never needs it, and loading it was
 * about 85 ms of the start on a slow machine (docs/decisions.md "Start-up and metrics").
 */
import { createRequire } from 'node:module';

export type Pg = typeof import('pg');

let loaded: Pg | undefined;

export function pgModule(): Pg {
  return (loaded ??= createRequire(import.meta.url)('pg') as Pg);
}
