/**
 * Bulk certificate upload (issue 12 item 5, docs/decisions.md "Bulk upload"): each block of one
 * text goes through the single upload, a refused block stops none of the others, exactly the
 * uploaded ones are stored and journaled; authorized as the single upload, before the text is read;
 * the caps on blocks and size refuse the whole call before anything is stored.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, uniqueTag, type Cooperation } from '../../../test/support/factories';
import { makeCertificate } from '../../../scripts/make-certificate';
import { BULK_UPLOAD_BODY_LIMIT, BULK_UPLOAD_MAX_BYTES, type BulkUploadResult } from '../../../common/schemas/bulk-upload';

const dialects = await testDialects();
const DAY = 86_400_000;

describe.each(dialects)('bulk certificate upload on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;

  beforeAll(async () => {
    w = await make.cooperation();
  });

  const bulkUrl = (organizationId: string) => `/api/organizations/${organizationId}/certificates/bulk`;
  /** A new certificate: its PEM, its DN as the portal writes it, and its key. */
  async function fresh(label = 'bulk') {
    const now = t.clock.now().getTime();
    const cn = `${label}-${uniqueTag()}.contoso.example`;
    const { pem, privateKeyPem } = await makeCertificate({ subject: `O=Contoso, CN=${cn}`, notBefore: new Date(now - DAY), notAfter: new Date(now + 90 * DAY) });
    return { pem, dn: `CN=${cn},O=Contoso`, privateKeyPem };
  }
  const stored = async (dns: string[]) =>
    (await t.db.selectFrom('certificates').select(['distinguished_name', 'organization_id', 'description', 'owner_member_id', 'date_approved']).where('distinguished_name', 'in', dns).execute());
  const journalOf = async (organizationId: string) =>
    t.db.selectFrom('audit_records').select(['reason', 'message', 'member_email']).where('organization_id', '=', organizationId).orderBy('record_id', 'desc').execute();
  const journalCount = async () => Number((await t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const certificateCount = async () => Number((await t.db.selectFrom('certificates').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('uploads each good block of a paste and refuses the others, each with its reason, in the order of the text', async () => {
    const good = [await fresh(), await fresh(), await fresh()];
    const existing = await make.certificate(w.customer, 'approved');
    const key = await fresh('key');
    const garbage = '-----BEGIN CERTIFICATE-----\nTm90IGEgY2VydGlmaWNhdGUgYXQgYWxs\n-----END CERTIFICATE-----\n';
    // As pasted from several files and a terminal: text between the blocks, CRLF line ends in one.
    const text = [
      'gateway one:', good[0].pem,
      'an old one:', existing.pem,
      good[1].pem.replace(/\n/g, '\r\n'),
      garbage,
      key.privateKeyPem,
      '# the last one', good[2].pem, 'trailing text',
    ].join('\n');
    const journalBefore = (await journalOf(w.customer.id)).length;

    const res = await t.call(w.issuer.email, { method: 'POST', url: bulkUrl(w.customer.id), payload: { description: '  Gateways of the March rollout ', certificates: text } });
    expect(res.statusCode, res.body).toBe(200);
    const body: BulkUploadResult = res.json();
    expect(body).toEqual({
      uploaded: 3,
      refused: 3,
      results: [
        { index: 1, distinguished_name: good[0].dn, outcome: 'uploaded', message: `Uploaded certificate ${good[0].dn}; it waits for approval.` },
        { index: 2, distinguished_name: existing.dn, outcome: 'refused', message: `A certificate with the distinguished name ${existing.dn} is already in the portal.` },
        { index: 3, distinguished_name: good[1].dn, outcome: 'uploaded', message: `Uploaded certificate ${good[1].dn}; it waits for approval.` },
        { index: 4, distinguished_name: null, outcome: 'refused', message: 'The certificate could not be read: the block is not a valid X.509 certificate.' },
        { index: 5, distinguished_name: null, outcome: 'refused', message: 'This text holds a private key. Upload only the certificate, and keep the private key secret.' },
        { index: 6, distinguished_name: good[2].dn, outcome: 'uploaded', message: `Uploaded certificate ${good[2].dn}; it waits for approval.` },
      ],
    });

    // Exactly the good ones stored, as a single upload stores them: waiting for approval, owned by the uploader.
    const rows = await stored([...good.map((g) => g.dn), existing.dn]);
    expect(rows.filter((r) => r.description === 'Gateways of the March rollout').map((r) => r.distinguished_name).sort()).toEqual(good.map((g) => g.dn).sort());
    for (const g of good) expect(rows.find((r) => r.distinguished_name === g.dn)).toMatchObject({ organization_id: w.customer.id, owner_member_id: w.issuer.id, date_approved: null });
    expect(rows.find((r) => r.distinguished_name === existing.dn)?.description).toBe('approved certificate');
    // Nothing of the key anywhere: not stored, not journaled.
    const keyBody = key.privateKeyPem.split('\n')[1];
    expect(await t.db.selectFrom('certificates').select('distinguished_name').where('certificate_pem', 'like', `%${keyBody.slice(0, 20)}%`).execute()).toEqual([]);

    // One record per uploaded certificate, by the uploader, and none for the refused blocks.
    const journal = await journalOf(w.customer.id);
    expect(journal.length - journalBefore).toBe(3);
    expect(journal.slice(0, 3).map((r) => r.message).sort()).toEqual(good.map((g) => `Uploaded certificate ${g.dn}.`).sort());
    expect(journal.slice(0, 3).every((r) => r.reason === 'CERTIFICATE_UPLOADED' && r.member_email === w.issuer.email)).toBe(true);
    expect(JSON.stringify(journal)).not.toContain(keyBody.slice(0, 20));
  });

  it('refuses the second of two blocks with one DN in the same paste as a duplicate', async () => {
    const one = await fresh('twice');
    const res = await t.call(w.issuer.email, { method: 'POST', url: bulkUrl(w.customer.id), payload: { certificates: `${one.pem}\n${one.pem}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([
      { index: 1, distinguished_name: one.dn, outcome: 'uploaded', message: expect.stringContaining('Uploaded') },
      { index: 2, distinguished_name: one.dn, outcome: 'refused', message: `A certificate with the distinguished name ${one.dn} is already in the portal.` },
    ]);
    expect(await stored([one.dn])).toHaveLength(1);
  });

  it('reports a block without its END line and still uploads the block after it', async () => {
    const [cut, whole] = [await fresh('cut'), await fresh('whole')];
    const text = `${cut.pem.replace('-----END CERTIFICATE-----', '')}\n${whole.pem}`;
    const res = await t.call(w.issuer.email, { method: 'POST', url: bulkUrl(w.customer.id), payload: { certificates: text } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      uploaded: 1, refused: 1,
      results: [
        { index: 1, distinguished_name: null, outcome: 'refused', message: 'The CERTIFICATE block has no -----END CERTIFICATE----- line before the next block or the end of the text.' },
        { index: 2, distinguished_name: whole.dn, outcome: 'uploaded' },
      ],
    });
    expect(await stored([cut.dn])).toEqual([]);
  });

  it('refuses callers as the single upload does: 401, 404 for an organization they cannot see, 403 without the role, before the text is read', async () => {
    const good = await fresh('refused');
    const valid = { certificates: good.pem };
    const before = [await journalCount(), await certificateCount()];
    const cases: Array<[string | null, string, number, object]> = [
      [null, w.customer.id, 401, valid],
      [w.issuer.email, w.partner.id, 404, valid],
      [w.issuer.email, 'no-such-organization', 404, valid],
      [w.member.email, w.customer.id, 403, valid],
      // The roles are asked before the text is read: no 400 for an empty text to someone who may not upload.
      [w.member.email, w.customer.id, 403, { certificates: '' }],
      [w.issuer.email, w.partner.id, 404, { certificates: 'not a certificate', unknown: 1 }],
      [w.bannedMember.email, w.banned.id, 403, valid],
    ];
    for (const [as, organizationId, status, payload] of cases) {
      const bulk = await t.call(as, { method: 'POST', url: bulkUrl(organizationId), payload });
      expect(bulk.statusCode, `${as} ${organizationId}: ${bulk.body}`).toBe(status);
      // The same refusal as the single upload's.
      const single = await t.call(as, { method: 'POST', url: `/api/organizations/${organizationId}/certificates`, payload: { certificate: good.pem } });
      expect(single.statusCode, `${as} ${organizationId}`).toBe(status);
      expect(bulk.json()).toEqual(single.json());
    }
    expect([await journalCount(), await certificateCount()]).toEqual(before);
  });

  it('refuses bad input with a 400 naming the field, and stores nothing', async () => {
    const good = await fresh('bad-input');
    const before = [await journalCount(), await certificateCount()];
    const cases: Array<[unknown, string, RegExp]> = [
      [{}, 'certificates', /certificates/],
      [{ certificates: 7 }, 'certificates', /certificates/],
      [{ certificates: '' }, 'certificates', /Paste one or more certificates in PEM form/],
      [{ certificates: 'MIIBkTCB+wIJAK...' }, 'certificates', /Paste one or more certificates in PEM form/],
      [{ certificates: good.pem, description: 'x'.repeat(1001) }, 'description', /1000/],
      [{ certificates: good.pem, description: 'a\u0000b' }, 'description', /control characters/],
      [{ certificates: good.pem, owner: 'me' }, 'owner', /Unknown field 'owner'/],
      [[good.pem], '', /./],
    ];
    for (const [payload, field, message] of cases) {
      const res = await t.call(w.issuer.email, { method: 'POST', url: bulkUrl(w.customer.id), payload: payload as object });
      expect(res.statusCode, `${JSON.stringify(payload).slice(0, 80)}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(message);
      if (field) expect(res.json().field).toBe(field);
    }
    expect([await journalCount(), await certificateCount()]).toEqual(before);
  });

  it('takes at most 100 blocks and 6,400 KiB of text, refusing more whole before storing any, and a body beyond 8 MiB with a 413', async () => {
    const good = await fresh('cap');
    const before = [await journalCount(), await certificateCount()];
    // 101 blocks: the first is a good certificate, and not stored.
    const many = [good.pem, ...Array.from({ length: 100 }, () => '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')].join('\n');
    const tooMany = await t.call(w.issuer.email, { method: 'POST', url: bulkUrl(w.customer.id), payload: { certificates: many } });
    expect(tooMany.statusCode, tooMany.body).toBe(400);
    expect(tooMany.json()).toMatchObject({ field: 'certificates', message: 'The text holds 101 PEM blocks; at most 100 go in one upload. Nothing was uploaded.' });

    // Over 6,400 KiB of text (inside the body limit): refused with the sizes.
    const padded = `${good.pem}\n${'#'.repeat(BULK_UPLOAD_MAX_BYTES)}`;
    const tooLarge = await t.call(w.issuer.email, { method: 'POST', url: bulkUrl(w.customer.id), payload: { certificates: padded } });
    expect(tooLarge.statusCode, tooLarge.body.slice(0, 200)).toBe(400);
    expect(tooLarge.json()).toMatchObject({ field: 'certificates', message: expect.stringMatching(/at most 6,?400 KiB \(100 certificates\)/) });

    const huge = await t.call(w.issuer.email, { method: 'POST', url: bulkUrl(w.customer.id), payload: { certificates: 'x'.repeat(BULK_UPLOAD_BODY_LIMIT) } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ severity: 'ERROR', message: expect.any(String) });
    expect([await journalCount(), await certificateCount()]).toEqual(before);
  });

  it('takes a hundred certificates of real size in one call, as pasted (JSON-escaped line ends within the body limit)', async () => {
    const hundred = await Promise.all(Array.from({ length: 100 }, () => fresh('hundred')));
    const text = hundred.map((h) => h.pem.replace(/\n/g, '\r\n')).join('\r\n');
    const res = await t.call(w.issuer.email, { method: 'POST', url: bulkUrl(w.customer.id), payload: { certificates: text } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json()).toMatchObject({ uploaded: 100, refused: 0 });
    expect(await stored(hundred.map((h) => h.dn))).toHaveLength(100);
  }, 60_000);
});
