/** The queries of the recorded gateway tokens (table api_tokens, migration 0026). */
import type { Insertable } from 'kysely';
import type { Queryable } from '../../db/database';
import type { Database } from '../../db/schema';

export type TokenRow = Insertable<Database['api_tokens']>;

export async function insertToken(db: Queryable, row: TokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** Every recorded token, newest first: a handful of gateways, so no pages. */
export function listTokens(db: Queryable) {
  return db.selectFrom('api_tokens').selectAll().orderBy('date_created', 'desc').orderBy('token_id', 'desc').execute();
}

export function findToken(db: Queryable, tokenId: string) {
  return db.selectFrom('api_tokens').selectAll().where('token_id', '=', tokenId).executeTakeFirst();
}

/**
 * Where a token stands by its row: the verification's one query (modules/tokens/api-tokens.ts). Tokens made
 * before tokens were recorded have none, and keep working (docs/decisions.md "API tokens").
 */
export async function recordOf(db: Queryable, tokenId: string): Promise<'active' | 'revoked' | 'unrecorded'> {
  const row = await db.selectFrom('api_tokens').select('date_revoked').where('token_id', '=', tokenId).executeTakeFirst();
  return !row ? 'unrecorded' : row.date_revoked ? 'revoked' : 'active';
}

/**
 * Revokes the token unless it is revoked already; true when this call did. The condition is in the update
 * itself, so of two revocations at once exactly one changes the row, on either engine.
 */
export async function revokeToken(db: Queryable, tokenId: string, by: string, at: string): Promise<boolean> {
  const result = await db.updateTable('api_tokens').set({ date_revoked: at, revoked_by: by })
    .where('token_id', '=', tokenId).where('date_revoked', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Writes the last uses kept in memory; never moves a later use back (another instance may have written one). */
export async function writeLastUses(db: Queryable, uses: ReadonlyMap<string, string>): Promise<void> {
  for (const [tokenId, at] of uses) {
    await db.updateTable('api_tokens').set({ date_last_used: at }).where('token_id', '=', tokenId)
      .where((eb) => eb.or([eb('date_last_used', 'is', null), eb('date_last_used', '<', at)])).execute();
  }
}
