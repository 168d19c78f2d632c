import { describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { makeCertificate } from '../../../scripts/make-certificate';

const dialects = await testDialects();
const DAY = 86_400_000;

describe.each(dialects)('certificates API on %s', (dialect) => {
  const t = useTestApp(dialect);
  const base = () => `/api/organizations/${t.org.contoso}/certificates`;
  const at = (dn: string) => `${base()}/${encodeURIComponent(dn)}`;

  async function certificate(subject: string, fromDays = -1, toDays = 30) {
    const now = t.clock.now().getTime();
    return makeCertificate({ subject, notBefore: new Date(now + fromDays * DAY), notAfter: new Date(now + toDays * DAY) });
  }
  async function upload(subject: string, as = 'issuer@contoso.example', fromDays?: number, toDays?: number) {
    const { pem } = await certificate(subject, fromDays, toDays);
    return t.call(as, { method: 'POST', url: base(), payload: { description: `gateway ${subject}`, certificate: pem } });
  }
  const count = async () => Number((await t.db.selectFrom('certificates').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  describe('upload', () => {
    it('stores what the certificate says, owned by the uploader, Not approved, and journals it', async () => {
      const res = await upload('C=DE, O=Contoso, CN=gw1.contoso.example');
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        distinguished_name: 'CN=gw1.contoso.example,O=Contoso,C=DE',
        description: 'gateway C=DE, O=Contoso, CN=gw1.contoso.example',
        owner: { name: 'Isla Contoso' },
        date_approved: null,
        signature_algorithm: 'ecdsa-with-SHA256',
        version: 3,
        organization_name: 'Contoso',
        certificate_pem: expect.stringContaining('-----BEGIN CERTIFICATE-----'),
      });
      const record = await t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'CERTIFICATE_UPLOADED').executeTakeFirstOrThrow();
      expect(record).toMatchObject({ organization_id: t.org.contoso, member_email: 'issuer@contoso.example' });
    });

    it('answers 409 to a second certificate with the same DN, in any organization', async () => {
      const again = await upload('C=DE, O=Contoso, CN=gw1.contoso.example');
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toContain('already');
    });

    it('refuses bad input with a message saying what is wrong, and stores nothing', async () => {
      const { pem, privateKeyPem } = await certificate('CN=bad-input');
      const { pem: second } = await certificate('CN=bad-input-2');
      // A certificate whose base64 ends in padding (about two in three do).
      const paddedPem = async () => {
        for (let i = 0; i < 30; i++) {
          const { pem: candidate } = await certificate(`CN=padded-${i}`);
          if (/=\n-----END/.test(candidate)) return candidate;
        }
        throw new Error('no certificate with base64 padding in 30 tries');
      };
      const body = pem.split('\n').filter((l) => !l.startsWith('-----')).join('');
      const cases: Array<[unknown, RegExp]> = [
        ['', /PEM/],
        ['   \n ', /PEM/],
        ['garbage text', /PEM/],
        [privateKeyPem, /private key/],
        [`${pem}\n${privateKeyPem}`, /private key/],
        [`${pem}${second}`, /one certificate at a time/],
        [body, /PEM/],
        [Buffer.from(body, 'base64').toString('latin1'), /PEM/],
        ['-----BEGIN CERTIFICATE-----\nnot*base64\n-----END CERTIFICATE-----', /base64/],
        // The same bytes without the padding: Node would read them, but the text is damaged (found by the fuzz run).
        [(await paddedPem()).replace(/=+\n-----END/, '\n-----END'), /base64/],
        ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', /not a valid X.509/],
        ['-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----', /found CERTIFICATE REQUEST/],
        [`${pem}${'x'.repeat(65 * 1024)}`, /64 KiB/],
      ];
      const before = await count();
      for (const [certificateText, message] of cases) {
        const res = await t.call('issuer@contoso.example', { method: 'POST', url: base(), payload: { description: 'x', certificate: certificateText } });
        expect(res.statusCode, String(message)).toBe(400);
        expect(res.json().message).toMatch(message);
      }
      const missing = await t.call('issuer@contoso.example', { method: 'POST', url: base(), payload: { description: 'x' } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().field).toBe('certificate');
      expect(await count()).toBe(before);
    });

    it('tolerates text around the block', async () => {
      const { pem } = await certificate('CN=with-text-around');
      const res = await t.call('issuer@contoso.example', { method: 'POST', url: base(), payload: { description: '', certificate: `Subject: x\n\n${pem}\nthanks` } });
      expect(res.statusCode).toBe(201);
    });
  });

  describe('who may act where', () => {
    it('refuses without a token, in an unrelated organization, and without the role', async () => {
      const { pem } = await certificate('CN=permission-check');
      const payload = { description: '', certificate: pem };
      expect((await t.call(null, { method: 'POST', url: base(), payload })).statusCode).toBe(401);
      expect((await t.call('issuer@northwind.example', { method: 'POST', url: base(), payload })).statusCode).toBe(404);
      expect((await t.call('member@contoso.example', { method: 'POST', url: base(), payload })).statusCode).toBe(403);
      // admin@northwind manages Contoso but ADMINISTRATOR may not upload.
      expect((await t.call('admin@northwind.example', { method: 'POST', url: base(), payload })).statusCode).toBe(403);
      expect((await t.call('supervisor@operator.example', { method: 'POST', url: base(), payload })).statusCode).toBe(201);
    });

    it('lets readers read but not approve, revoke, remove or edit', async () => {
      const dn = 'CN=permission-check';
      for (const email of ['member@contoso.example', 'admin@northwind.example']) {
        expect((await t.call(email, { method: 'GET', url: at(dn) })).statusCode).toBe(200);
        expect((await t.call(email, { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}` })).statusCode).toBe(403);
        expect((await t.call(email, { method: 'POST', url: `${at(dn)}/revoke` })).statusCode).toBe(403);
        expect((await t.call(email, { method: 'DELETE', url: at(dn) })).statusCode).toBe(403);
        expect((await t.call(email, { method: 'PUT', url: `${at(dn)}/description`, payload: JSON.stringify('x'), headers: { 'content-type': 'application/json' } })).statusCode).toBe(403);
      }
    });

    it('hides certificates of other tenants entirely', async () => {
      const dn = 'CN=permission-check';
      for (const [method, url] of [
        ['GET', at(dn)], ['GET', base()], ['POST', `/api/approve/${encodeURIComponent(dn)}`], ['POST', `${at(dn)}/revoke`],
        ['POST', `${at(dn)}/acknowledge-expiry`], ['DELETE', at(dn)],
      ] as const) {
        const res = await t.call('issuer@northwind.example', { method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      // The certificate exists, but not in Northwind: the path's organization is part of the lookup.
      const wrongPath = `/api/organizations/${t.org.northwind}/certificates/${encodeURIComponent(dn)}`;
      expect((await t.call('supervisor@operator.example', { method: 'GET', url: wrongPath })).statusCode).toBe(404);
      const list = await t.call('issuer@northwind.example', { method: 'GET', url: '/api/certificates' });
      const organizations = new Set((list.json() as Array<{ organization_name: string }>).map((c) => c.organization_name));
      expect([...organizations]).toEqual(['Northwind Networks']);
    });
  });

  describe('life cycle', () => {
    const subject = 'C=DE, L=Hamburg, O=Contoso Überall GmbH, OU=Ops\\, Berlin, CN=Zoë gw/2';

    it('round-trips a DN with commas, spaces, slashes, non-ASCII and over 100 characters through every path', async () => {
      const res = await upload(subject);
      expect(res.statusCode).toBe(201);
      const stored = res.json().distinguished_name as string;
      expect(stored.length).toBeGreaterThan(60);
      expect(stored).toBe('CN=Zoë gw/2,OU=Ops\\, Berlin,O=Contoso Überall GmbH,L=Hamburg,C=DE');
      const long = await upload(`C=DE, O=${'Very Long Organization Name '.repeat(4)}, CN=gw3`);
      expect(long.statusCode).toBe(201);
      const longDn = long.json().distinguished_name as string;
      expect(longDn.length).toBeGreaterThan(100);
      for (const d of [stored, longDn]) {
        const got = await t.call('member@contoso.example', { method: 'GET', url: at(d) });
        expect(got.statusCode).toBe(200);
        expect(got.json().distinguished_name).toBe(d);
      }
    });

    it('approves, refuses a second approval, edits the description, revokes, refuses to approve again, removes', async () => {
      const d = 'CN=Zoë gw/2,OU=Ops\\, Berlin,O=Contoso Überall GmbH,L=Hamburg,C=DE';
      const url = at(d);
      const approver = 'approver@operator.example';
      expect((await t.call(approver, { method: 'DELETE', url })).statusCode).toBe(409);
      expect((await t.call(approver, { method: 'POST', url: `/api/approve/${encodeURIComponent(d)}` })).statusCode).toBe(204);
      const approved = (await t.call('member@contoso.example', { method: 'GET', url })).json();
      expect(approved).toMatchObject({ approver: { name: 'April Approver' }, date_approved: t.clock.now().toISOString() });
      const again = await t.call(approver, { method: 'POST', url: `/api/approve/${encodeURIComponent(d)}` });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('The certificate is already approved.');

      const edit = await t.call(approver, { method: 'PUT', url: `${url}/description`, payload: JSON.stringify('Hamburg backup gateway'), headers: { 'content-type': 'application/json' } });
      expect(edit.statusCode).toBe(200);
      expect(edit.json().description).toBe('Hamburg backup gateway');
      const tooLong = await t.call(approver, { method: 'PUT', url: `${url}/description`, payload: JSON.stringify('x'.repeat(1001)), headers: { 'content-type': 'application/json' } });
      expect(tooLong.statusCode).toBe(400);

      expect((await t.call(approver, { method: 'POST', url: `${url}/revoke` })).statusCode).toBe(204);
      expect((await t.call(approver, { method: 'POST', url: `${url}/revoke` })).statusCode).toBe(409);
      expect((await t.call(approver, { method: 'POST', url: `/api/approve/${encodeURIComponent(d)}` })).json().message).toBe('A revoked certificate cannot be approved.');
      expect((await t.call(approver, { method: 'POST', url: `${url}/acknowledge-expiry` })).statusCode).toBe(409);
      expect((await t.call(approver, { method: 'DELETE', url })).statusCode).toBe(204);
      expect((await t.call(approver, { method: 'GET', url })).statusCode).toBe(404);

      const records = await t.db.selectFrom('audit_records').select(['reason', 'message']).orderBy('record_id').execute();
      const reasons = records.filter((r) => r.message.includes(d)).map((r) => r.reason);
      expect(reasons).toEqual(['CERTIFICATE_UPLOADED', 'CERTIFICATE_APPROVED', 'CERTIFICATE_DESCRIPTION_CHANGED', 'CERTIFICATE_REVOKED', 'CERTIFICATE_REMOVED']);
    });

    it('asks for an expiry acknowledgement once an approved certificate expires', async () => {
      const res = await upload('CN=short-lived', 'issuer@contoso.example', -1, 2);
      const d = res.json().distinguished_name;
      await t.call('approver@operator.example', { method: 'POST', url: `/api/approve/${encodeURIComponent(d)}` });
      const pending = async () => ((await t.call('supervisor@operator.example', { method: 'GET', url: '/api/acknowledge' })).json().certificates as Array<{ distinguished_name: string }>).map((c) => c.distinguished_name);
      expect(await pending()).not.toContain(d);
      t.clock.advanceDays(3);
      expect(await pending()).toContain(d);
      expect((await t.call('issuer@contoso.example', { method: 'POST', url: `${at(d)}/acknowledge-expiry` })).statusCode).toBe(204);
      expect(await pending()).not.toContain(d);
      expect((await t.call('issuer@contoso.example', { method: 'POST', url: `${at(d)}/acknowledge-expiry` })).json().message).toBe('The expiry is already acknowledged.');
    });

    it('lists pending approvals of the readable organizations', async () => {
      const res = await t.call('admin@northwind.example', { method: 'GET', url: '/api/approve' });
      const dns = (res.json().certificates as Array<{ distinguished_name: string; date_approved: string | null }>);
      expect(dns.length).toBeGreaterThan(0);
      expect(dns.every((c) => c.date_approved === null)).toBe(true);
      const northwind = (await t.call('issuer@northwind.example', { method: 'GET', url: '/api/approve' })).json().certificates;
      expect(northwind.map((c: { distinguished_name: string }) => c.distinguished_name)).toEqual(['CN=staging.northwind.example,O=Northwind Networks,C=US']);
    });
  });

  describe('lists', () => {
    const dns = async (query: string, url = base()) => {
      const res = await t.call('member@contoso.example', { method: 'GET', url: `${url}${query}` });
      expect(res.statusCode).toBe(200);
      return (res.json() as Array<{ distinguished_name: string }>).map((c) => c.distinguished_name);
    };

    it('filters by DN text, case-insensitively, and by the three toggles', async () => {
      await upload('CN=future.contoso.example', 'issuer@contoso.example', 10, 40);
      const all = await dns('');
      expect(all.length).toBeGreaterThanOrEqual(4);
      expect(await dns('?name=FUTURE')).toEqual(['CN=future.contoso.example']);
      expect(await dns('?hideExpired=true')).not.toContain('CN=short-lived');
      expect(await dns('?hideRequests=true')).not.toContain('CN=future.contoso.example');
      const valid = await dns('?hideValid=true');
      expect(valid).toContain('CN=future.contoso.example');
      expect(valid).toContain('CN=short-lived');
      expect(valid).not.toContain('CN=with-text-around');
    });

    it('pages and tells the total; the admin list names the organization', async () => {
      const res = await t.call('member@contoso.example', { method: 'GET', url: `${base()}?limit=2` });
      expect(res.json()).toHaveLength(2);
      expect(Number(res.headers['x-total-count'])).toBeGreaterThan(2);
      const admin = await t.call('supervisor@operator.example', { method: 'GET', url: '/api/certificates?name=future' });
      expect(admin.json()).toEqual([expect.objectContaining({ organization_name: 'Contoso' })]);
    });

    it("lists a member's own certificates", async () => {
      const member = await t.db.selectFrom('members').select('member_id').where('member_email', '=', 'issuer@contoso.example').executeTakeFirstOrThrow();
      const owned = await dns('', `/api/organizations/${t.org.contoso}/members/${member.member_id}/certificates`);
      expect(owned).toContain('CN=future.contoso.example');
      expect(owned).not.toContain('CN=permission-check');
    });
  });
});
