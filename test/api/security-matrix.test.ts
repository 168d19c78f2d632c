/**
 * One generated matrix over every API route of the OpenAPI document: no token is 401, and a token
 * for another audience is 401. Who may do what once signed in (every person, every organization,
 * valid requests, foreign targets whatever the body) is test/api/authorization-matrix.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases';
import { signToken, useTestApp } from '../support/test-app';

const dialects = await testDialects();

/** Routes anyone may call: sign-in plumbing and the public key of license keys. */
const PUBLIC = new Set(['GET /api/config', 'GET /api/licenses/public-key']);
const METHODS = ['get', 'post', 'put', 'delete'] as const;

describe.each(dialects)('security matrix on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function routes() {
    const doc = (await t.app.inject('/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    const contosoCert = await t.db.selectFrom('certificates').select('distinguished_name').where('organization_id', '=', t.org.contoso).executeTakeFirstOrThrow();
    const contosoMember = await t.db.selectFrom('members').select('member_id').where('organization_id', '=', t.org.contoso).executeTakeFirstOrThrow();
    const contosoLicense = await t.db.selectFrom('licenses').select('license_id').where('organization_id', '=', t.org.contoso).executeTakeFirstOrThrow();
    const resource = await t.db.selectFrom('resources').select('resource_id').executeTakeFirstOrThrow();
    const values: Record<string, string> = {
      id: t.org.contoso,
      dn: encodeURIComponent(contosoCert.distinguished_name),
      memberId: contosoMember.member_id,
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
    const foreign = await signToken(t.db, { email: 'supervisor@operator.example', email_verified: true }, { audience: 'someone-else' });
    for (const route of await routes()) {
      if (PUBLIC.has(`${route.method} ${route.template}`)) continue;
      const anonymous = await t.app.inject({ method: route.method as 'GET', url: route.url });
      expect(anonymous.statusCode, `${route.method} ${route.template} without a token`).toBe(401);
      const wrong = await t.app.inject({ method: route.method as 'GET', url: route.url, headers: { authorization: `Bearer ${foreign}` } });
      expect(wrong.statusCode, `${route.method} ${route.template} with a foreign token`).toBe(401);
    }
  });
});
