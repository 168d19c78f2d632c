/**
 * What the demo publishes: its password. Production refuses to start on a database where an
 * account of the built-in provider still signs in with it (server/main.ts; issue 14 item 4),
 * whoever seeded it: a copy of a demo database, or demo data started once without production.
 * Apart from seed.ts, so production loads this check and never the seeders.
 */
import type { Db } from '../db/database';
import { verifyPassword } from '../auth/idp/passwords';

export const DEMO_PASSWORD = 'portal-demo';

/** Emails of accounts whose password is the demo's. Only the demo's domains are tried: scrypt is slow on purpose. */
export async function accountsWithDemoPassword(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('accounts').select(['email', 'password_hash']).where('email', 'like', '%.example').orderBy('email').limit(50).execute();
  const found: string[] = [];
  for (const row of rows) if (await verifyPassword(DEMO_PASSWORD, row.password_hash)) found.push(row.email);
  return found;
}
