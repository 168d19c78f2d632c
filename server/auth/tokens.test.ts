import { describe, expect, it } from 'vitest';
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { createVerifier, type VerifierOptions } from './tokens';

const ISSUER = 'https://sso.example.com';
const AUDIENCE = 'customer-portal-api';

async function setup() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  const keys = createLocalJWKSet({ keys: [jwk] });
  const sign = (claims: JWTPayload) => new SignJWT({ sub: 'person-1', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(privateKey);
  const verifier = (options: Partial<VerifierOptions> = {}) => createVerifier({ issuer: ISSUER, audience: AUDIENCE, keys, ...options });
  return { sign, verifier };
}

describe('the verified-email claim', () => {
  it('is email_verified, true only when it says true', async () => {
    const { sign, verifier } = await setup();
    const verified = async (claims: JWTPayload) => (await verifier().verify(await sign({ email: 'ada@example.com', ...claims }))).email_verified;
    expect(await verified({ email_verified: true })).toBe(true);
    // Some providers (Amazon Cognito) send the claim as a string.
    expect(await verified({ email_verified: 'true' })).toBe(true);
    for (const no of [false, 'false', 1, 'yes', null, undefined]) expect(await verified({ email_verified: no }), String(no)).toBe(false);
  });

  it('can be another claim (OIDC_EMAIL_VERIFIED_CLAIM), and then email_verified says nothing', async () => {
    const { sign, verifier } = await setup();
    const v = verifier({ emailVerifiedClaim: 'xms_edov' });
    expect((await v.verify(await sign({ email: 'ada@example.com', xms_edov: true }))).email_verified).toBe(true);
    expect((await v.verify(await sign({ email: 'ada@example.com', email_verified: true }))).email_verified).toBe(false);
  });

  it('is not needed when the provider is trusted to send verified emails only (OIDC_TRUST_EMAIL)', async () => {
    const { sign, verifier } = await setup();
    expect((await verifier({ trustEmail: true }).verify(await sign({ email: 'ada@example.com' }))).email_verified).toBe(true);
    expect((await verifier().verify(await sign({ email: 'ada@example.com' }))).email_verified).toBe(false);
  });

  it('is asked of the userinfo endpoint when the access token lacks it', async () => {
    const { sign, verifier } = await setup();
    const asked: string[] = [];
    const userinfo = async (token: string) => {
      asked.push(token);
      return { email: 'ada@example.com', email_verified: true };
    };
    const withoutClaim = await sign({ email: 'ada@example.com' });
    expect((await verifier({ userinfo }).verify(withoutClaim)).email_verified).toBe(true);
    expect(asked).toEqual([withoutClaim]);
    // A token that says it itself is not sent there; nor is one of a trusted provider.
    expect((await verifier({ userinfo }).verify(await sign({ email: 'ada@example.com', email_verified: false }))).email_verified).toBe(false);
    expect((await verifier({ userinfo, trustEmail: true }).verify(withoutClaim)).email_verified).toBe(true);
    expect(asked).toHaveLength(1);
  });
});

describe('the access-token type', () => {
  it('is required when the verifier names one (the built-in provider: at+jwt)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] });
    const sign = (typ?: string) => new SignJWT({ sub: 'p', email: 'ada@example.com', email_verified: true })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(privateKey);
    const typed = createVerifier({ issuer: ISSUER, audience: AUDIENCE, keys, typ: 'at+jwt' });
    expect((await typed.verify(await sign('at+jwt'))).email).toBe('ada@example.com');
    await expect(typed.verify(await sign('JWT'))).rejects.toThrow();
    await expect(typed.verify(await sign(undefined))).rejects.toThrow();
    // External providers type their tokens as they like (Entra ID and Keycloak: JWT).
    const untyped = createVerifier({ issuer: ISSUER, audience: AUDIENCE, keys });
    expect((await untyped.verify(await sign('JWT'))).email).toBe('ada@example.com');
  });
});
