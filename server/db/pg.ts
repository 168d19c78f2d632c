/** node-postgres, loaded when a PostgreSQL database is opened: a portal on SQLite never needs it. */
import { loadWhenUsed } from '../load-when-used';

export const pgModule = loadWhenUsed<typeof import('pg')>('pg');
