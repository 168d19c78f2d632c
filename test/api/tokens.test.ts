/**
 * Forged and misused bearer tokens on member endpoints (issue 9, "Tokens"). Every bad token is
 * one change away from a good one that the same test shows accepted, so each refusal is the
 * check it names and nothing else: a token the API would refuse anyway proves nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, exportSPKI, generateKeyPair, importJWK, type JWTPayload } from 'jose';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { TEST_CONFIG } from '../support/tokens';
import { factories, type Cooperation } from '../support/factories';
import { loadProviderKeys } from '../../server/auth/idp/keys';
import { UNVERIFIED_EMAIL } from '../../server/auth/actor';
import { signApiToken } from '../../server/modules/tokens/api-tokens';

const dialects = await testDialects();

/** Member endpoints: the profile the web app loads after sign-in, and a list. */
const MEMBER_ENDPOINTS = ['/api/auth/callback', '/api/organizations'];
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(dialects)('bearer tokens on member endpoints on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The tokens name the operator's supervisor (a member the API finds), or another member; DevOps gives the secret. */
  let w: Cooperation;
  let SUPERVISOR: string;
  beforeAll(async () => {
    w = await make.cooperation();
    SUPERVISOR = w.supervisor.email;
  });
  const now = () => Math.floor(Date.now() / 1000);

  /** An access token as the built-in provider makes it, signed with its key; `change` alters one thing. */
  async function accessToken(change: { header?: Record<string, unknown>; claims?: JWTPayload } = {}) {
    const { privateJwks } = await loadProviderKeys(t.db);
    const jwk = privateJwks.keys[0];
    const claims: JWTPayload = {
      iss: TEST_CONFIG.oidc.issuer, aud: TEST_CONFIG.oidc.audience, sub: 'account-1', iat: now(), exp: now() + 600,
      email: SUPERVISOR, email_verified: true, name: w.supervisor.name, ...change.claims,
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'at+jwt', ...change.header })
      .sign(await importJWK(jwk, 'ES256'));
  }

  const statuses = async (token: string) => {
    const answers = [];
    for (const url of MEMBER_ENDPOINTS) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      answers.push(res.statusCode);
    }
    return answers;
  };
  const refused = [401, 401];

  it('accepts the unaltered token (the baseline every other case changes one thing of)', async () => {
    expect(await statuses(await accessToken())).toEqual([200, 200]);
  });

  it('refuses a token signed with another key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const { privateJwks } = await loadProviderKeys(t.db);
    const claims = { iss: TEST_CONFIG.oidc.issuer, aud: TEST_CONFIG.oidc.audience, sub: 'account-1', email: SUPERVISOR, email_verified: true };
    // With the provider's key id, too: the id picks a key, it does not vouch for the signature.
    for (const kid of [undefined, privateJwks.keys[0].kid]) {
      const foreign = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' }).setIssuedAt().setExpirationTime('10m').sign(privateKey);
      expect(await statuses(foreign)).toEqual(refused);
    }
  });

  it('refuses an unsigned token (alg none)', async () => {
    const [, payload] = (await accessToken()).split('.');
    const header = b64({ alg: 'none', typ: 'at+jwt' });
    expect(await statuses(`${header}.${payload}.`)).toEqual(refused);
  });

  it("refuses HS256 signed with the provider's public key as the secret (algorithm confusion)", async () => {
    const { publicJwks } = await loadProviderKeys(t.db);
    const jwk = publicJwks.keys[0];
    const pem = await exportSPKI((await importJWK(jwk, 'ES256', { extractable: true })) as CryptoKey);
    const claims = { iss: TEST_CONFIG.oidc.issuer, aud: TEST_CONFIG.oidc.audience, sub: 'account-1', email: SUPERVISOR, email_verified: true };
    for (const secret of [pem, JSON.stringify(jwk)]) {
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: jwk.kid, typ: 'at+jwt' })
        .setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(secret));
      expect(await statuses(forged)).toEqual(refused);
    }
  });

  it('refuses an expired token, and one not yet valid (nbf in the future)', async () => {
    expect(await statuses(await accessToken({ claims: { iat: now() - 1200, exp: now() - 60 } }))).toEqual(refused);
    expect(await statuses(await accessToken({ claims: { nbf: now() + 300 } }))).toEqual(refused);
    // Within the 5 s clock tolerance both are still good: the limits are the claims, not a guess.
    expect(await statuses(await accessToken({ claims: { nbf: now() + 2 } }))).toEqual([200, 200]);
  });

  it('refuses a token for another audience or from another issuer', async () => {
    expect(await statuses(await accessToken({ claims: { aud: 'another-api' } }))).toEqual(refused);
    expect(await statuses(await accessToken({ claims: { iss: 'https://evil.example/oidc' } }))).toEqual(refused);
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = (await accessToken({ claims: { email: w.member.email } })).split('.');
    const [, payload] = (await accessToken()).split('.');
    expect(await statuses(`${header}.${payload}.${signature}`)).toEqual(refused);
  });

  it('refuses an ID token used as an access token', async () => {
    // The built-in provider's ID tokens: no `typ` header, audience the client id (oidc-provider).
    const idToken = { header: { typ: undefined }, claims: { aud: TEST_CONFIG.oidc.clientId, azp: TEST_CONFIG.oidc.clientId, auth_time: now(), at_hash: 'x' } };
    expect(await statuses(await accessToken(idToken))).toEqual(refused);
    // Even one that also names the API as audience: it is not typed as an access token.
    expect(await statuses(await accessToken({ ...idToken, claims: { ...idToken.claims, aud: [TEST_CONFIG.oidc.clientId, TEST_CONFIG.oidc.audience] } }))).toEqual(refused);
    expect(await statuses(await accessToken({ header: { typ: 'JWT' } }))).toEqual(refused);
  });

  it("refuses the gateway's API token on member endpoints", async () => {
    const provided = await t.call(w.devops.email, {
      method: 'POST', url: '/api/admin/mastersecret', payload: 'a master secret for the token tests', headers: { 'content-type': 'text/plain' },
    });
    expect(provided.statusCode).toBe(200);
    const { token } = await signApiToken(t.app, { upn: SUPERVISOR, groups: ['piston_export'], expiresInDays: 1 });
    expect((await t.app.inject({ method: 'GET', url: '/api/piston/routes.hcl', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect(await statuses(token)).toEqual(refused);
    const create = await t.app.inject({
      method: 'POST', url: '/api/token', headers: { authorization: `Bearer ${token}` },
      payload: { expires_in: 1, upn: 'x@gateway.example', groups: ['piston_export'] },
    });
    expect(create.statusCode).toBe(401);
  });

  describe('an email the provider has not verified', () => {
    it("is not matched to the member who has that email, with a message saying why", async () => {
      for (const unverified of [{ email_verified: false }, { email_verified: undefined }, { email_verified: 'false' }]) {
        const token = await accessToken({ claims: unverified });
        for (const url of MEMBER_ENDPOINTS) {
          const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
          expect(res.statusCode, `${url} ${JSON.stringify(unverified)}`).toBe(403);
          expect(res.json()).toMatchObject({ message: UNVERIFIED_EMAIL, redirect: 'AccessError' });
        }
      }
    });
  });
});
