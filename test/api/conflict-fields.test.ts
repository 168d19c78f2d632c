/**
 * A 409 about a value already taken names the field it is about (docs/decisions.md "Forms", issue
 * 12), so the form that sent it shows it under that field like a 400: a certificate's DN, a
 * license's name, a resource's ordinal, an organization's name and trusted domain.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { factories, uniqueTag, type Cooperation } from '../support/factories';

const dialects = await testDialects();

describe.each(dialects)('409s about one field on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });

  it('names the field of a taken certificate, license name, ordinal, organization name and domain', async () => {
    const certificate = await make.certificate(w.customer, 'approved');
    const upload = await t.call(w.issuer.email, { method: 'POST', url: `/api/organizations/${w.customer.id}/certificates`, payload: { description: 'again', certificate: certificate.pem } });
    expect(upload.statusCode).toBe(409);
    expect(upload.json()).toEqual({ message: `A certificate with the distinguished name ${certificate.dn} is already in the portal.`, severity: 'WARNING', field: 'certificate' });

    const license = await make.license(w.customer, 'approved');
    const request = await t.call(w.issuer.email, { method: 'POST', url: `/api/organizations/${w.customer.id}/licenses`, payload: { license_name: license.name.toUpperCase(), license_scope: 'LAB' } });
    expect(request.statusCode).toBe(409);
    expect(request.json()).toMatchObject({ field: 'license_name', message: expect.stringMatching(/already exists/) });

    const resource = await make.resource();
    const tag = uniqueTag();
    const taken = await t.call(w.devops.email, {
      method: 'POST', url: '/api/resources',
      payload: { resource_name: `Files ${tag}`, resource_type: 'STATIC_CONTENT', resource_access: 'PUBLIC', path_pattern: `/files-${tag}/*`, location: `/srv/files-${tag}`, ordinal: resource.ordinal },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ field: 'ordinal', message: expect.stringMatching(/^Ordinal \d+ is taken/) });

    const name = await t.call(w.supervisor.email, { method: 'POST', url: '/api/organizations', payload: { organization_name: w.partner.name } });
    expect(name.statusCode).toBe(409);
    expect(name.json()).toMatchObject({ field: 'organization_name' });
    const domain = await t.call(w.supervisor.email, { method: 'POST', url: '/api/organizations', payload: { organization_name: `Other ${uniqueTag()}`, domains: [w.customer.domain] } });
    expect(domain.statusCode).toBe(409);
    expect(domain.json()).toMatchObject({ field: 'domains', message: `Another organization already trusts ${w.customer.domain}.` });
  });
});
