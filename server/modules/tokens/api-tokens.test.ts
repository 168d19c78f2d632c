/**
 * A gateway sends the same API token with every poll, so a verified token is kept (api-tokens.ts):
 * kept or not, it stops working at the same instant, its `exp`, as jose's own check says.
 */
import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories } from '../../../test/support/factories';
import { signApiToken, verifyApiToken } from './api-tokens';

const dialects = await testDialects();

describe.each(dialects.slice(0, 1))('API token expiry, kept or not (%s)', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  const pull = (token: string) => t.app.inject({ method: 'GET', url: '/api/piston/routes.hcl', headers: { authorization: `Bearer ${token}` } });

  it('answers until the second before exp, and 401 from exp on, whether verified before or not', async () => {
    const { devops } = await make.cooperation();
    const provided = await t.call(devops.email, { method: 'POST', url: '/api/admin/mastersecret', payload: 'a master secret for the tests', headers: { 'content-type': 'text/plain' } });
    expect(provided.statusCode).toBe(200);
    const kept = (await signApiToken(t.app, { upn: 'kept', groups: ['piston_export'], expiresInDays: 1 })).token;
    const fresh = (await signApiToken(t.app, { upn: 'fresh', groups: ['piston_export'], expiresInDays: 1 })).token;
    const exp = Number(decodeJwt(kept).exp) * 1000;
    expect(Number(decodeJwt(fresh).exp) * 1000).toBe(exp);

    t.clock.set(new Date(exp - 1));
    expect((await pull(kept)).statusCode).toBe(200);
    expect((await verifyApiToken(t.app, kept)).upn).toBe('kept');

    t.clock.set(new Date(exp));
    // The kept one is refused by the kept claims' exp, the fresh one by jose: the same instant.
    expect((await pull(kept)).statusCode).toBe(401);
    expect((await pull(fresh)).statusCode).toBe(401);
    // Refused once, it is forgotten: going back in time verifies it again, and it works.
    t.clock.set(new Date(exp - 1_000));
    expect((await pull(kept)).statusCode).toBe(200);
    expect((await pull(fresh)).statusCode).toBe(200);
  });
});
