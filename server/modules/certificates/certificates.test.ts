import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, uniqueTag, type Cooperation, type Org } from '../../../test/support/factories';
import { makeCertificate } from '../../../scripts/make-certificate';

const dialects = await testDialects();
const DAY = 86_400_000;

describe.each(dialects)('certificates API on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The operator's staff and a partner's people, who act; each test makes the organization and certificates it acts on. */
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const base = (org: Org) => `/api/organizations/${org.id}/certificates`;
  const at = (org: Org, dn: string) => `${base(org)}/${encodeURIComponent(dn)}`;
  /** A customer of the partner (so its administrator manages it), with an issuer and a member. */
  async function customer() {
    const org = await make.organization({ parent: w.partner });
    return { org, issuer: await make.member(org, { role: 'ISSUER' }), member: await make.member(org, { role: 'MEMBER' }) };
  }

  async function certificate(subject: string, fromDays = -1, toDays = 30) {
    const now = t.clock.now().getTime();
    return makeCertificate({ subject, notBefore: new Date(now + fromDays * DAY), notAfter: new Date(now + toDays * DAY) });
  }
  async function upload(org: Org, subject: string, as: string, fromDays?: number, toDays?: number) {
    const { pem } = await certificate(subject, fromDays, toDays);
    return t.call(as, { method: 'POST', url: base(org), payload: { description: `gateway ${subject}`, certificate: pem } });
  }
  const count = async () => Number((await t.db.selectFrom('certificates').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  describe('upload', () => {
    it('stores what the certificate says, owned by the uploader, Not approved, and journals it', async () => {
      const c = await customer();
      const cn = `gw1-${uniqueTag()}.contoso.example`;
      const res = await upload(c.org, `C=DE, O=Contoso, CN=${cn}`, c.issuer.email);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        distinguished_name: `CN=${cn},O=Contoso,C=DE`,
        description: `gateway C=DE, O=Contoso, CN=${cn}`,
        owner: { name: c.issuer.name },
        date_approved: null,
        signature_algorithm: 'ecdsa-with-SHA256',
        version: 3,
        organization_name: c.org.name,
        certificate_pem: expect.stringContaining('-----BEGIN CERTIFICATE-----'),
      });
      const records = await t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'CERTIFICATE_UPLOADED').where('organization_id', '=', c.org.id).execute();
      expect(records).toEqual([expect.objectContaining({ organization_id: c.org.id, member_email: c.issuer.email })]);
      expect(records[0].message).toContain(`CN=${cn},O=Contoso,C=DE`);
    });

    it('answers 409 to a second certificate with the same DN, in any organization', async () => {
      const first = await customer();
      const second = await customer();
      const subject = `C=DE, O=Contoso, CN=twin-${uniqueTag()}.contoso.example`;
      expect((await upload(first.org, subject, first.issuer.email)).statusCode).toBe(201);
      // Another key, the same subject: in the same organization and in another one.
      for (const [org, as] of [[first.org, first.issuer.email], [second.org, second.issuer.email]] as const) {
        const again = await upload(org, subject, as);
        expect(again.statusCode).toBe(409);
        expect(again.json().message).toContain('already');
      }
    });

    it('refuses bad input with a message saying what is wrong, and stores nothing', async () => {
      const c = await customer();
      const { pem, privateKeyPem } = await certificate(`CN=bad-input-${uniqueTag()}`);
      const { pem: second } = await certificate(`CN=bad-input-2-${uniqueTag()}`);
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
        const res = await t.call(c.issuer.email, { method: 'POST', url: base(c.org), payload: { description: 'x', certificate: certificateText } });
        expect(res.statusCode, String(message)).toBe(400);
        expect(res.json().message).toMatch(message);
      }
      const missing = await t.call(c.issuer.email, { method: 'POST', url: base(c.org), payload: { description: 'x' } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().field).toBe('certificate');
      expect(await count()).toBe(before);
      // The same certificate, unspoiled, is taken.
      expect((await t.call(c.issuer.email, { method: 'POST', url: base(c.org), payload: { description: 'x', certificate: pem } })).statusCode).toBe(201);
    });

    it('tolerates text around the block', async () => {
      const c = await customer();
      const { pem } = await certificate(`CN=with-text-around-${uniqueTag()}`);
      const res = await t.call(c.issuer.email, { method: 'POST', url: base(c.org), payload: { description: '', certificate: `Subject: x\n\n${pem}\nthanks` } });
      expect(res.statusCode).toBe(201);
    });
  });

  describe('who may act where', () => {
    it('refuses without a token, in an unrelated organization, and without the role', async () => {
      const c = await customer();
      const { pem } = await certificate(`CN=permission-check-${uniqueTag()}`);
      const payload = { description: '', certificate: pem };
      expect((await t.call(null, { method: 'POST', url: base(c.org), payload })).statusCode).toBe(401);
      // The partner's issuer reads only the partner (ORGANIZATION scope).
      expect((await t.call(w.partnerIssuer.email, { method: 'POST', url: base(c.org), payload })).statusCode).toBe(404);
      expect((await t.call(c.member.email, { method: 'POST', url: base(c.org), payload })).statusCode).toBe(403);
      // The partner's administrator manages the customer, but ADMINISTRATOR may not upload.
      expect((await t.call(w.partnerAdmin.email, { method: 'POST', url: base(c.org), payload })).statusCode).toBe(403);
      expect((await t.call(w.supervisor.email, { method: 'POST', url: base(c.org), payload })).statusCode).toBe(201);
    });

    it('lets readers read but not approve, revoke, remove or edit', async () => {
      const c = await customer();
      const { dn } = await make.certificate(c.org, 'requested');
      for (const email of [c.member.email, w.partnerAdmin.email]) {
        expect((await t.call(email, { method: 'GET', url: at(c.org, dn) })).statusCode).toBe(200);
        expect((await t.call(email, { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}` })).statusCode).toBe(403);
        expect((await t.call(email, { method: 'POST', url: `${at(c.org, dn)}/revoke` })).statusCode).toBe(403);
        expect((await t.call(email, { method: 'DELETE', url: at(c.org, dn) })).statusCode).toBe(403);
        expect((await t.call(email, { method: 'PUT', url: `${at(c.org, dn)}/description`, payload: JSON.stringify('x'), headers: { 'content-type': 'application/json' } })).statusCode).toBe(403);
      }
      // Nothing changed: still waiting for approval, as the approver can tell by approving it.
      expect((await t.call(w.approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}` })).statusCode).toBe(204);
    });

    it('hides certificates of other tenants entirely', async () => {
      const c = await customer();
      const { dn } = await make.certificate(c.org, 'approved');
      // A partner of its own, with an issuer and a certificate: it cannot read the customer of the other partner.
      const partner = await make.organization({ role: 'PARTNER', parent: w.operator });
      const outsider = await make.member(partner, { role: 'ISSUER' });
      await make.certificate(partner, 'approved');
      for (const [method, url] of [
        ['GET', at(c.org, dn)], ['GET', base(c.org)], ['POST', `/api/approve/${encodeURIComponent(dn)}`], ['POST', `${at(c.org, dn)}/revoke`],
        ['POST', `${at(c.org, dn)}/acknowledge-expiry`], ['DELETE', at(c.org, dn)],
      ] as const) {
        const res = await t.call(outsider.email, { method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      // The certificate exists, but not in that partner: the path's organization is part of the lookup.
      const wrongPath = `/api/organizations/${partner.id}/certificates/${encodeURIComponent(dn)}`;
      expect((await t.call(w.supervisor.email, { method: 'GET', url: wrongPath })).statusCode).toBe(404);
      expect((await t.call(w.supervisor.email, { method: 'GET', url: at(c.org, dn) })).statusCode).toBe(200);
      const list = await t.call(outsider.email, { method: 'GET', url: '/api/certificates' });
      const organizations = new Set((list.json() as Array<{ organization_name: string }>).map((x) => x.organization_name));
      expect([...organizations]).toEqual([partner.name]);
    });
  });

  describe('life cycle', () => {
    it('round-trips a DN with commas, spaces, slashes, non-ASCII and over 100 characters through every path', async () => {
      const c = await customer();
      const res = await upload(c.org, 'C=DE, L=Hamburg, O=Contoso Überall GmbH, OU=Ops\\, Berlin, CN=Zoë gw/2', c.issuer.email);
      expect(res.statusCode).toBe(201);
      const stored = res.json().distinguished_name as string;
      expect(stored.length).toBeGreaterThan(60);
      expect(stored).toBe('CN=Zoë gw/2,OU=Ops\\, Berlin,O=Contoso Überall GmbH,L=Hamburg,C=DE');
      const long = await upload(c.org, `C=DE, O=${'Very Long Organization Name '.repeat(4)}, CN=gw3`, c.issuer.email);
      expect(long.statusCode).toBe(201);
      const longDn = long.json().distinguished_name as string;
      expect(longDn.length).toBeGreaterThan(100);
      for (const d of [stored, longDn]) {
        const got = await t.call(c.member.email, { method: 'GET', url: at(c.org, d) });
        expect(got.statusCode).toBe(200);
        expect(got.json().distinguished_name).toBe(d);
      }
    });

    it('approves, refuses a second approval, edits the description, revokes, refuses to approve again, removes', async () => {
      const c = await customer();
      const tag = uniqueTag();
      const res = await upload(c.org, `C=DE, L=Hamburg ${tag}, O=Contoso Überall GmbH, OU=Ops\\, Berlin, CN=Zoë gw/2`, c.issuer.email);
      const d = res.json().distinguished_name as string;
      expect(d).toBe(`CN=Zoë gw/2,OU=Ops\\, Berlin,O=Contoso Überall GmbH,L=Hamburg ${tag},C=DE`);
      const url = at(c.org, d);
      const approver = w.approver.email;
      expect((await t.call(approver, { method: 'DELETE', url })).statusCode).toBe(409);
      expect((await t.call(approver, { method: 'POST', url: `/api/approve/${encodeURIComponent(d)}` })).statusCode).toBe(204);
      const approved = (await t.call(c.member.email, { method: 'GET', url })).json();
      expect(approved).toMatchObject({ approver: { name: w.approver.name }, date_approved: t.clock.now().toISOString() });
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
      const c = await customer();
      const res = await upload(c.org, `CN=short-lived-${uniqueTag()}`, c.issuer.email, -1, 2);
      const d = res.json().distinguished_name;
      expect((await t.call(w.approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(d)}` })).statusCode).toBe(204);
      const pending = async () => ((await t.call(w.supervisor.email, { method: 'GET', url: '/api/acknowledge?limit=1000' })).json().certificates as Array<{ distinguished_name: string }>).map((x) => x.distinguished_name);
      expect(await pending()).not.toContain(d);
      t.clock.advanceDays(3);
      expect(await pending()).toContain(d);
      expect((await t.call(c.issuer.email, { method: 'POST', url: `${at(c.org, d)}/acknowledge-expiry` })).statusCode).toBe(204);
      expect(await pending()).not.toContain(d);
      expect((await t.call(c.issuer.email, { method: 'POST', url: `${at(c.org, d)}/acknowledge-expiry` })).json().message).toBe('The expiry is already acknowledged.');
    });

    it('lists pending approvals of the readable organizations', async () => {
      const c = await customer();
      const waiting = await make.certificate(c.org, 'requested');
      const res = await t.call(w.partnerAdmin.email, { method: 'GET', url: '/api/approve?limit=1000' });
      const dns = (res.json().certificates as Array<{ distinguished_name: string; date_approved: string | null }>);
      expect(dns.map((x) => x.distinguished_name)).toContain(waiting.dn);
      expect(dns.every((x) => x.date_approved === null)).toBe(true);
      // A partner of its own: its issuer sees its own request, not its approved certificate, nothing of others.
      const partner = await make.organization({ role: 'PARTNER', parent: w.operator });
      const issuer = await make.member(partner, { role: 'ISSUER' });
      const own = await make.certificate(partner, 'requested');
      await make.certificate(partner, 'approved');
      const seen = (await t.call(issuer.email, { method: 'GET', url: '/api/approve' })).json().certificates;
      expect(seen.map((x: { distinguished_name: string }) => x.distinguished_name)).toEqual([own.dn]);
    });
  });

  describe('lists', () => {
    const dns = async (as: string, url: string, query: string) => {
      const res = await t.call(as, { method: 'GET', url: `${url}${query}` });
      expect(res.statusCode).toBe(200);
      return (res.json() as Array<{ distinguished_name: string }>).map((x) => x.distinguished_name);
    };

    it('filters by DN text, case-insensitively, and by the three toggles', async () => {
      const c = await customer();
      const tag = uniqueTag();
      const future = await make.certificate(c.org, 'requested', { cn: `future-${tag}.contoso.example`, from: 10, to: 40 });
      const expired = await make.certificate(c.org, 'expired', { cn: `short-lived-${tag}.contoso.example` });
      const valid = await make.certificate(c.org, 'approved', { cn: `valid-${tag}.contoso.example` });
      const revoked = await make.certificate(c.org, 'revoked', { cn: `revoked-${tag}.contoso.example` });
      const list = (query: string) => dns(c.member.email, base(c.org), query);
      expect((await list('')).sort()).toEqual([future.dn, expired.dn, valid.dn, revoked.dn].sort());
      expect(await list(`?name=FUTURE-${tag.toUpperCase()}`)).toEqual([future.dn]);
      expect(await list('?hideExpired=true')).not.toContain(expired.dn);
      expect(await list('?hideExpired=true')).toContain(valid.dn);
      expect(await list('?hideRequests=true')).not.toContain(future.dn);
      expect(await list('?hideRequests=true')).toContain(valid.dn);
      const hidingValid = await list('?hideValid=true');
      expect(hidingValid).toContain(future.dn);
      expect(hidingValid).toContain(expired.dn);
      expect(hidingValid).not.toContain(valid.dn);
    });

    it('pages and tells the total; the admin list names the organization', async () => {
      const c = await customer();
      const tag = uniqueTag();
      for (const state of ['approved', 'requested', 'expired'] as const) await make.certificate(c.org, state, { cn: `${state}-${tag}.contoso.example` });
      const res = await t.call(c.member.email, { method: 'GET', url: `${base(c.org)}?limit=2` });
      expect(res.json()).toHaveLength(2);
      expect(Number(res.headers['x-total-count'])).toBe(3);
      const admin = await t.call(w.supervisor.email, { method: 'GET', url: `/api/certificates?name=requested-${tag}` });
      expect(admin.json()).toEqual([expect.objectContaining({ organization_name: c.org.name })]);
    });

    it("lists a member's own certificates", async () => {
      const c = await customer();
      const owned = await make.certificate(c.org, 'approved', { owner: c.issuer.id });
      const other = await make.certificate(c.org, 'approved', { owner: null });
      const list = await dns(c.member.email, `/api/organizations/${c.org.id}/members/${c.issuer.id}/certificates`, '');
      expect(list).toContain(owned.dn);
      expect(list).not.toContain(other.dn);
    });
  });
});
