/**
 * One generated matrix over every API route of the OpenAPI document: no token is 401, and a token
 * for another audience is 401. Who may do what once signed in (every person, every organization,
 * valid requests, foreign targets whatever the body) is test/api/authorization-matrix.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { signToken } from '../support/tokens';
import { factories } from '../support/factories';

const dialects = await testDialects();

/** Routes anyone may call: sign-in plumbing and the public key of license keys. */
const PUBLIC = new Set(['GET /api/config', 'GET /api/licenses/public-key']);
const METHODS = ['get', 'post', 'put', 'delete'] as const;

describe.each(dialects)('security matrix on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);

  /** Every route with real ids of the factories' objects: a customer's certificate, member and license, and a resource. */
  async function routes() {
    const doc = (await t.app.inject('/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    const customer = await make.organization();
    const contosoCert = await make.certificate(customer, 'approved');
    const contosoMember = await make.member(customer);
    const contosoLicense = { license_id: (await make.license(customer, 'approved')).id };
    const resource = { resource_id: (await make.resource()).id };
    const values: Record<string, string> = {
      id: customer.id,
      dn: encodeURIComponent(contosoCert.dn),
      memberId: contosoMember.id,
      licenseId: contosoLicense.license_id,
    };
    const list: Array<{ method: string; url: string; template: string }> = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      if (!template.startsWith('/api/')) continue;
      for (const method of METHODS) {
        if (!operations[method]) continue;
        const isResource = template.startsWith('/api/resources/');
        const isLicense = template.startsWith('/api/licenses/');
        const url = template.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === 'id' && isResource ? resource.resource_id : name === 'id' && isLicense ? contosoLicense.license_id : values[name] ?? 'x',
        );
        list.push({ method: method.toUpperCase(), url, template });
      }
    }
    return list;
  }

  it('answers 401 to every call without a token or with a token of another audience', async () => {
    const supervisor = await make.member(await make.organization({ role: 'OPERATOR' }), { role: 'SUPERVISOR', scope: 'COOPERATION' });
    const foreign = await signToken(t.db, { email: supervisor.email, email_verified: true }, { audience: 'someone-else' });
    // The same person with the right audience is let in: the audience alone is refused.
    expect((await t.call(supervisor.email, { method: 'GET', url: '/api/organizations' })).statusCode).toBe(200);
    for (const route of await routes()) {
      if (PUBLIC.has(`${route.method} ${route.template}`)) continue;
      const anonymous = await t.app.inject({ method: route.method as 'GET', url: route.url });
      expect(anonymous.statusCode, `${route.method} ${route.template} without a token`).toBe(401);
      const wrong = await t.app.inject({ method: route.method as 'GET', url: route.url, headers: { authorization: `Bearer ${foreign}` } });
      expect(wrong.statusCode, `${route.method} ${route.template} with a foreign token`).toBe(401);
    }
  });
});
