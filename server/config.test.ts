import { describe, expect, it } from 'vitest';
import { demoDataWarning, loadConfig, trustProxyOption } from './config';

const EXTERNAL = { OIDC_ISSUER: 'https://sso.example.com/realms/portal', OIDC_CLIENT_ID: 'customer-portal', OIDC_AUDIENCE: 'customer-portal-api' };

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default, in production too', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).trustProxy).toBe(false);
    for (const none of ['', 'false', '0']) expect(loadConfig({ TRUST_PROXY: none }).trustProxy).toBe(false);
  });

  it('takes a hop count, or proxy addresses, CIDRs and range names', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,fd00::/8, ::1,loopback' }).trustProxy)
      .toEqual(['10.0.0.5', '192.168.0.0/16', 'fd00::/8', '::1', 'loopback']);
  });

  it('stops start-up on anything else, naming the variable', () => {
    for (const bad of ['true', '11', '10.0.0.300', '10.0.0.0/33', 'fd00::/129', 'proxy.example.com', '10.0.0.1,', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: /);
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1, evil' })).toThrow(/not an address: "evil"/);
  });

  it("turns a hop count into a rule on the hops (Fastify trusts nobody for a bare number)", () => {
    const rule = trustProxyOption(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2, 3].map((hop) => rule('203.0.113.9', hop))).toEqual([true, true, false, false]);
    expect(trustProxyOption(['10.0.0.1'])).toEqual(['10.0.0.1']);
    expect(trustProxyOption(false)).toBe(false);
  });
});

describe("an external provider's claims", () => {
  it("reads the standard claims by default and trusts no provider's emails blindly", () => {
    const standard = { email: ['email'], emailVerified: 'email_verified', name: 'name', givenName: 'given_name', familyName: 'family_name' };
    expect(loadConfig(EXTERNAL).oidc).toMatchObject({ claims: standard, trustEmail: false });
    expect(loadConfig({}).oidc).toMatchObject({ claims: standard, trustEmail: false });
  });

  it('takes other claims, nested paths and namespaced names, or trusts the emails when told so', () => {
    const oidc = loadConfig({
      ...EXTERNAL,
      OIDC_EMAIL_CLAIM: ' email, upn ,preferred_username',
      OIDC_EMAIL_VERIFIED_CLAIM: 'xms_edov',
      OIDC_NAME_CLAIM: 'profile.display_name',
      OIDC_GIVEN_NAME_CLAIM: 'https://portal.example.com/given',
      OIDC_FAMILY_NAME_CLAIM: 'family_name',
    }).oidc;
    expect(oidc.claims).toEqual({
      email: ['email', 'upn', 'preferred_username'], emailVerified: 'xms_edov', name: 'profile.display_name',
      givenName: 'https://portal.example.com/given', familyName: 'family_name',
    });
    expect(loadConfig({ ...EXTERNAL, OIDC_EMAIL_CLAIM: '', OIDC_NAME_CLAIM: ' ' }).oidc.claims).toMatchObject({ email: ['email'], name: 'name' });
    expect(loadConfig({ ...EXTERNAL, OIDC_TRUST_EMAIL: 'true' }).oidc.trustEmail).toBe(true);
  });

  it('refuses a malformed claim, a vague yes, and any of these settings without an external provider', () => {
    expect(() => loadConfig({ ...EXTERNAL, OIDC_EMAIL_VERIFIED_CLAIM: 'email verified' })).toThrow(/OIDC_EMAIL_VERIFIED_CLAIM: must be a claim name/);
    expect(() => loadConfig({ ...EXTERNAL, OIDC_EMAIL_CLAIM: 'email,mail box' })).toThrow(/OIDC_EMAIL_CLAIM: .*not one: "mail box"/);
    expect(() => loadConfig({ ...EXTERNAL, OIDC_NAME_CLAIM: '.name' })).toThrow(/OIDC_NAME_CLAIM: /);
    expect(() => loadConfig({ ...EXTERNAL, OIDC_TRUST_EMAIL: 'yes' })).toThrow(/OIDC_TRUST_EMAIL: /);
    for (const key of ['OIDC_EMAIL_CLAIM', 'OIDC_EMAIL_VERIFIED_CLAIM', 'OIDC_NAME_CLAIM', 'OIDC_GIVEN_NAME_CLAIM', 'OIDC_FAMILY_NAME_CLAIM']) {
      expect(() => loadConfig({ [key]: 'upn' }), key).toThrow(new RegExp(`${key}: .*OIDC_ISSUER`));
    }
    expect(() => loadConfig({ OIDC_TRUST_EMAIL: 'true' })).toThrow(/OIDC_TRUST_EMAIL: .*OIDC_ISSUER/);
  });
});

describe('OIDC_AUDIENCE', () => {
  it('must differ from the client id, whose audience ID tokens carry', () => {
    expect(() => loadConfig({ ...EXTERNAL, OIDC_AUDIENCE: 'customer-portal' })).toThrow(/OIDC_AUDIENCE: must differ from OIDC_CLIENT_ID/);
  });
});

describe('safe defaults (issue 14)', () => {
  it('listens on 127.0.0.1 with demo data, on every interface without, and HOST always wins', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ SEED_DEMO: 'true' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '' }).host).toBe('127.0.0.1');
    expect(loadConfig({ SEED_DEMO: 'false' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '127.0.0.1', NODE_ENV: 'production' }).host).toBe('127.0.0.1');
  });

  it('warns about the demo accounts at start, saying where it listens and how to change it', () => {
    expect(demoDataWarning(loadConfig({}))).toMatch(/demo accounts with the published password.*127\.0\.0\.1 only: set HOST/);
    expect(demoDataWarning(loadConfig({ HOST: '0.0.0.0' }))).toMatch(/demo accounts .* on 0\.0\.0\.0 as HOST says; set SEED_DEMO=false/);
    expect(demoDataWarning(loadConfig({ SEED_DEMO: 'false' }))).toBeUndefined();
    expect(demoDataWarning(loadConfig({ NODE_ENV: 'production' }))).toBeUndefined();
  });

  it('refuses demo data in production, naming the setting', () => {
    for (const yes of ['true', '1']) {
      expect(() => loadConfig({ NODE_ENV: 'production', SEED_DEMO: yes })).toThrow(/SEED_DEMO: demo data .* refused with NODE_ENV=production/);
    }
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('needs no secret in production: none has a built-in default', () => {
    // The built-in provider's signing key and cookie keys are made per database on first start
    // (auth/idp/keys.ts) and the master secret is provided by an operator; nothing ships with a value.
    const production = loadConfig({ NODE_ENV: 'production' });
    expect(production.masterSecretFile).toBeUndefined();
    expect(JSON.stringify(production)).not.toMatch(/secret|password|key/i);
    expect(loadConfig({ NODE_ENV: 'production', ...EXTERNAL }).oidc.builtIn).toBe(false);
  });
});

describe('SHUTDOWN_GRACE_SECONDS', () => {
  it('gives requests in flight 8 s by default, or the seconds it says', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(8000);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '' }).shutdownGraceMs).toBe(8000);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '25' }).shutdownGraceMs).toBe(25_000);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '0.5' }).shutdownGraceMs).toBe(500);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '0' }).shutdownGraceMs).toBe(0);
  });

  it('stops start-up on anything but 0 to 3600 seconds, naming the variable', () => {
    for (const bad of ['-1', 'ten', '10s', '3601']) {
      expect(() => loadConfig({ SHUTDOWN_GRACE_SECONDS: bad }), bad).toThrow(/SHUTDOWN_GRACE_SECONDS: must be a number of seconds, 0 to 3600/);
    }
  });
});

describe('the database limits (issue 31 item 3)', () => {
  it('fail a request within seconds by default: connect 5 s, statement 5 s, idle transaction 10 s', () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({ connectMs: 5_000, statementMs: 5_000, idleInTransactionMs: 10_000 });
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_SECONDS: ' ' }).databaseTimeouts.statementMs).toBe(5_000);
  });

  it('take seconds as SHUTDOWN_GRACE_SECONDS does, 0 for no limit, and stop start-up on anything else, naming the variable', () => {
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_SECONDS: '2.5', DATABASE_STATEMENT_TIMEOUT_SECONDS: '0', DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: '60' }).databaseTimeouts)
      .toEqual({ connectMs: 2_500, statementMs: 0, idleInTransactionMs: 60_000 });
    for (const [name, bad] of [['DATABASE_CONNECT_TIMEOUT_SECONDS', '5s'], ['DATABASE_STATEMENT_TIMEOUT_SECONDS', '-1'], ['DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS', 'ten'], ['DATABASE_CONNECT_TIMEOUT_SECONDS', '3601']]) {
      expect(() => loadConfig({ [name]: bad }), bad).toThrow(new RegExp(`${name}: must be a number of seconds, 0 \\(no limit\\) to 3600`));
    }
  });
});
