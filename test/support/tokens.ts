/**
 * What tests need to call a portal as a signed-in person without building the app in their own process: the test
 * settings, the test clock, and bearer tokens signed with the built-in provider's own key (the same verification
 * path as a real sign-in). Apart from test-app.ts, so that tests of child processes and of one part do not import
 * the whole app (server/app.ts) for a token.
 */
import { SignJWT, importJWK } from 'jose';
import { loadConfig } from '../../server/config';
import type { Queryable } from '../../server/db/database';
import { loadProviderKeys } from '../../server/auth/idp/keys';

export const START = new Date('2026-03-15T10:00:00Z');

export class TestClock {
  current = new Date(START);
  now = () => new Date(this.current);
  set(date: Date | string) {
    this.current = new Date(date);
  }
  advanceDays(days: number) {
    this.current = new Date(this.current.getTime() + days * 86_400_000);
  }
}

export const TEST_ENV = { NODE_ENV: 'test', PORT: '8080', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'silent' };
export const TEST_CONFIG = loadConfig(TEST_ENV);

export async function signToken(db: Queryable, claims: Record<string, unknown>, options: { expiresIn?: string; issuer?: string; audience?: string } = {}) {
  const { privateJwks } = await loadProviderKeys(db);
  const jwk = privateJwks.keys[0];
  const key = await importJWK(jwk, 'ES256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'at+jwt' })
    .setIssuer(options.issuer ?? TEST_CONFIG.oidc.issuer)
    .setAudience(options.audience ?? TEST_CONFIG.oidc.audience)
    .setSubject(String(claims.sub ?? claims.email ?? 'someone'))
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '10m')
    .sign(key);
}
