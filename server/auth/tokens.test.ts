import { describe, expect, it } from 'vitest';
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { createVerifier, UnresolvedIdentity, UserinfoRefused, type VerifierOptions } from './tokens';

const ISSUER = 'https://sso.example.com';
const AUDIENCE = 'customer-portal-api';

async function setup() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  const keys = createLocalJWKSet({ keys: [jwk] });
  const sign = (claims: JWTPayload, audience: string | string[] = AUDIENCE) => new SignJWT({ sub: 'person-1', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(ISSUER).setAudience(audience).setExpirationTime('5m').sign(privateKey);
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
    const v = verifier({ claims: { emailVerified: 'xms_edov' } });
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
      return { sub: 'person-1', email: 'ada@example.com', email_verified: true };
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

describe('where the person is read', () => {
  const CLIENT = 'customer-portal';

  it('follows the claim mapping: nested paths, namespaced names, the first of several email claims', async () => {
    const { sign, verifier } = await setup();
    const v = verifier({
      claims: { email: ['email', 'profile.mail'], emailVerified: 'profile.mail_verified', name: 'profile.names.display', givenName: 'https://portal.example.com/given' },
    });
    const identity = await v.verify(await sign({
      profile: { mail: 'Ada@Example.com', mail_verified: 'true', names: { display: 'Ada Lovelace' } },
      'https://portal.example.com/given': 'Ada',
    }));
    expect(identity).toMatchObject({ email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace', given_name: 'Ada', family_name: null });
    // A claim that is no address (a Keycloak username) is passed over for the next one.
    expect((await verifier({ claims: { email: ['preferred_username', 'email'] } }).verify(await sign({ preferred_username: 'ada', email: 'ada@example.com' }))).email).toBe('ada@example.com');
  });

  it("takes the web app's ID token for what the access token lacks, only for the same subject and client", async () => {
    const { sign, verifier } = await setup();
    const v = verifier({ clientId: CLIENT });
    const access = await sign({});
    const identity = await v.verify(access, await sign({ email: 'ada@example.com', email_verified: true, name: 'Ada' }, CLIENT));
    expect(identity).toMatchObject({ email: 'ada@example.com', email_verified: true, name: 'Ada' });
    // Another person's ID token, one for another client, or an access token passed as one: nobody.
    await expect(v.verify(access, await sign({ sub: 'person-2', email: 'eve@example.com', email_verified: true }, CLIENT))).rejects.toMatchObject({ detail: expect.stringMatching(/the ID token names another subject/) });
    await expect(v.verify(access, await sign({ email: 'ada@example.com', email_verified: true }, 'another-client'))).rejects.toMatchObject({ detail: expect.stringMatching(/ID token did not verify \(ERR_JWT_CLAIM_VALIDATION_FAILED: aud\)/) });
    await expect(v.verify(access, await sign({ email: 'ada@example.com', email_verified: true }))).rejects.toThrow(UnresolvedIdentity);
  });

  it('asks userinfo last, and only with an answer for the same subject', async () => {
    const { sign, verifier } = await setup();
    const access = await sign({});
    const answer = async () => ({ sub: 'person-1', email: 'ada@example.com', email_verified: true });
    expect((await verifier({ clientId: CLIENT, userinfo: answer }).verify(access, await sign({ name: 'Ada' }, CLIENT)))).toMatchObject({ email: 'ada@example.com', name: 'Ada' });
    await expect(verifier({ userinfo: async () => ({ sub: 'person-2', email: 'eve@example.com' }) }).verify(access)).rejects.toThrow(UnresolvedIdentity);
  });

  it("reads a verification claim only where it speaks of that same address", async () => {
    const { sign, verifier } = await setup();
    const v = verifier({ clientId: CLIENT });
    // The access token's yes is about another address than the ID token's: it proves nothing.
    const identity = await v.verify(await sign({ email_verified: true, email: 'old@example.com' }), await sign({ email: 'ada@example.com' }, CLIENT));
    expect(identity).toMatchObject({ email: 'old@example.com', email_verified: true });
    const split = await v.verify(await sign({ email_verified: true }), await sign({ email: 'ada@example.com' }, CLIENT));
    expect(split).toMatchObject({ email: 'ada@example.com', email_verified: true, verification_stated: true });
    const unstated = await v.verify(await sign({ email: 'ada@example.com' }), await sign({}, CLIENT));
    expect(unstated).toMatchObject({ email_verified: false, verification_stated: false });
  });

  it('says why nobody could be told, naming the setting and the claims that hold an address, never a value', async () => {
    const { sign, verifier } = await setup();
    const refused = async (): Promise<Record<string, unknown>> => {
      throw new UserinfoRefused(401);
    };
    const error = await verifier({ clientId: CLIENT, userinfo: refused })
      .verify(await sign({ upn: 'ada@contoso.example', preferred_username: 'ada@contoso.example' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnresolvedIdentity);
    const { detail, setting } = error as UnresolvedIdentity;
    expect(setting).toBe('OIDC_EMAIL_CLAIM');
    expect(detail).toMatch(/^access token has no claim "email" \(the web app sent no ID token; userinfo refused the access token \(401\)/);
    expect(detail).toMatch(/"upn" and "preferred_username" hold addresses: set OIDC_EMAIL_CLAIM/);
    expect(detail).not.toContain('contoso');
  });
});
