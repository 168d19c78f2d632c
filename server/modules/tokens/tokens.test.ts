import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';
import { signApiToken } from './api-tokens';

const dialects = await testDialects();
const SECRET = 'a master secret for the tests';

describe.each(dialects)('API tokens for the gateway on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  /** The secret held by this process, given by DevOps now unless a test before gave it. */
  async function secretProvided() {
    if (t.app.masterSecret.provided) return;
    const provided = await t.call(w.devops.email, { method: 'POST', url: '/api/admin/mastersecret', payload: SECRET, headers: { 'content-type': 'text/plain' } });
    expect(provided.statusCode).toBe(200);
  }
  const create = (as: string | null, payload: unknown) => t.call(as, { method: 'POST', url: '/api/token', payload: payload as object });
  const body = { expires_in: 365, upn: 'piston@gateway.example', groups: ['piston_export'] };
  const pull = (token: string, url = '/api/piston/routes.hcl') => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  it('answers 503 with a clear message while the master secret is missing', async () => {
    // A restarted process: the secret is in no memory yet.
    await t.restart();
    const res = await create(w.devops.email, body);
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toContain('Secret not yet provided');
  });

  it('makes a signed token for operator DEVOPS and SUPERVISOR, journalled with its id', async () => {
    await secretProvided();
    const res = await create(w.devops.email, body);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const claims = decodeJwt(res.body);
    expect(claims).toMatchObject({ upn: 'piston@gateway.example', groups: ['piston_export'] });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(365 * 86_400);
    const record = await t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'TOKEN_CREATED').where('message', 'like', `%${String(claims.jti)}%`).executeTakeFirstOrThrow();
    expect(record.message).toContain(String(claims.jti));
    expect(record).toMatchObject({ member_email: w.devops.email, organization_id: w.operator.id });
    expect(record.message).not.toContain(res.body);
    expect((await create(w.supervisor.email, body)).statusCode).toBe(200);
  });

  it('refuses others: no token, operator roles without the right, other organizations', async () => {
    await secretProvided();
    expect((await create(null, body)).statusCode).toBe(401);
    for (const email of [w.operatorAdmin.email, w.approver.email, w.partnerAdmin.email, w.issuer.email]) {
      expect((await create(email, body)).statusCode, email).toBe(403);
    }
  });

  it('refuses bad requests with 400 naming the field', async () => {
    await secretProvided();
    const cases: Array<[object, string]> = [
      [{ ...body, expires_in: 0 }, 'expires_in'],
      [{ ...body, expires_in: 731 }, 'expires_in'],
      [{ ...body, expires_in: 1.5 }, 'expires_in'],
      [{ ...body, upn: '' }, 'upn'],
      [{ ...body, upn: 'has space' }, 'upn'],
      [{ ...body, groups: ['admin'] }, 'groups.0'],
      [{ ...body, groups: [] }, 'groups'],
    ];
    for (const [payload, field] of cases) {
      const res = await create(w.devops.email, payload);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it('lets the gateway pull with its token, and refuses bad, foreign-group and expired tokens with 401', async () => {
    await secretProvided();
    const token = (await create(w.devops.email, { ...body, expires_in: 1 })).body;
    for (const url of ['/api/piston/routes.hcl', '/api/piston/certs', '/api/piston/statistics']) {
      expect((await pull(token, url)).statusCode, url).toBe(200);
    }
    const [head, payload, signature] = token.split('.');
    // Change one character in the middle of the signature: every bit there counts.
    const middle = Math.floor(signature.length / 2);
    const tampered = `${head}.${payload}.${signature.slice(0, middle)}${signature[middle] === 'A' ? 'B' : 'A'}${signature.slice(middle + 1)}`;
    expect((await pull(tampered)).statusCode).toBe(401);
    const otherGroup = await signApiToken(t.app, { upn: 'x', groups: ['reporting'], expiresInDays: 1 });
    expect((await pull(otherGroup.token)).statusCode).toBe(401);
    t.clock.advanceDays(2);
    expect((await pull(token)).statusCode).toBe(401);
    t.clock.advanceDays(-2);
    expect((await pull(token)).statusCode).toBe(200);
  });
});
