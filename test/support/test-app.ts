/**
 * An app on a real, seeded database with a clock the test moves, and bearer tokens signed with
 * the built-in provider's own key (the same verification path as a real sign-in).
 */
import { afterAll, beforeAll } from 'vitest';
import { SignJWT, importJWK } from 'jose';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Db } from '../../server/db/database';
import { loadProviderKeys } from '../../server/auth/idp/keys';
import { seedDemoData } from '../../server/demo/seed';
import { createTestDatabase, type Dialect, type TestDatabase } from './databases';

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

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: TestClock;
  /** Ids of the demo organizations by key: operator, northwind, contoso, fabrikam. */
  org: Record<string, string>;
  /** Headers of a signed-in person. */
  as(email: string, claims?: Record<string, unknown>): Promise<Record<string, string>>;
  /** `app.inject` as that person (or anonymous with `as: null`). */
  call(as: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
}

export const TEST_CONFIG = loadConfig({ NODE_ENV: 'test', PORT: '8080', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'silent' });

export async function signToken(db: Db, claims: Record<string, unknown>, options: { expiresIn?: string; issuer?: string; audience?: string } = {}) {
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

/** Registers beforeAll/afterAll hooks for a seeded app on the dialect; use inside a describe. */
export function useTestApp(dialect: Dialect): TestApp {
  let database: TestDatabase;
  const clock = new TestClock();
  const t = { clock, org: {} as Record<string, string> } as TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    t.db = database.db;
    await seedDemoData(t.db, clock.now());
    const orgs = await t.db.selectFrom('organizations').select(['organization_id', 'organization_name']).execute();
    for (const o of orgs) t.org[o.organization_name.split(' ')[0].toLowerCase()] = o.organization_id;
    t.app = await buildApp({ config: TEST_CONFIG, db: t.db, now: clock.now, logger: false });
    await t.app.ready();
  });

  afterAll(async () => {
    await t.app?.close();
    await database?.drop();
  });

  t.as = async (email, claims = {}) => {
    // Tokens are signed with the real clock: jose checks `exp` against it, not the test clock.
    const token = await signToken(t.db, { email, email_verified: true, name: email.split('@')[0], ...claims });
    return { authorization: `Bearer ${token}`, 'x-requested-with': 'JavaScript' };
  };
  t.call = async (as, options) => {
    const headers = { ...(as ? await t.as(as) : {}), ...(options.headers ?? {}) };
    return t.app.inject({ ...options, headers });
  };
  return t;
}
