/**
 * The built-in provider's signing key, made once and kept in the database so that every
 * instance, and every restart, signs and verifies with the same key.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Queryable } from '../../db/database';

export interface ProviderKeys {
  /** Private JWKS for oidc-provider's `jwks` option. */
  privateJwks: { keys: JWK[] };
  /** Public JWKS for verifying access tokens in the API. */
  publicJwks: { keys: JWK[] };
  /** Keys that sign the provider's cookies. */
  cookieKeys: string[];
}

const SETTING = 'idp.keys';

async function readSetting(db: Queryable, name: string) {
  const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

export async function loadProviderKeys(db: Queryable): Promise<ProviderKeys> {
  let stored = await readSetting(db, SETTING);
  if (!stored) {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'ES256', use: 'sig' };
    const value = JSON.stringify({ keys: [jwk], cookieKeys: [randomBytes(32).toString('base64url')] });
    // Two instances starting at once: the first insert wins, both read it back.
    await db.insertInto('settings').values({ name: SETTING, value }).onConflict((oc) => oc.column('name').doNothing()).execute();
    stored = (await readSetting(db, SETTING))!;
  }
  const { keys, cookieKeys } = JSON.parse(stored) as { keys: JWK[]; cookieKeys: string[] };
  const publicKeys = keys.map(({ d: _d, ...pub }) => pub);
  return { privateJwks: { keys }, publicJwks: { keys: publicKeys }, cookieKeys };
}
