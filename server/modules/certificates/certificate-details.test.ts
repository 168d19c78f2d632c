/**
 * What operators check on a certificate (issue 34): the issuer, the SHA-256 fingerprint, the subject alternative
 * names and the public key in GET of one certificate, for an RSA and an EC certificate; the fingerprint stored at
 * upload for the CSV exports, and filled by migration 0024 for the rows already there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, X509Certificate } from 'node:crypto';
import { migrator } from '../../db/migrate';
import { createTestDatabase, testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, uniqueTag, type Cooperation } from '../../../test/support/factories';
import { makeCertificate } from '../../../scripts/make-certificate';
import { parseCertificatePem } from './x509';

const dialects = await testDialects();
const DAY = 86_400_000;
const BEFORE_FINGERPRINTS = '20261129_0023_license_time_zone';
const FACTS = ['issuer', 'fingerprint_sha256', 'subject_alternative_names', 'key_algorithm', 'key_size', 'key_curve'];

/** The fingerprint as openssl prints it, computed here from the PEM's bytes: the DER's SHA-256, colon-separated. */
function opensslFingerprint(pem: string): string {
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)!.join(':');
}

describe.each(dialects)('certificate details on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });

  async function uploaded(subject: string, key: 'RSA 2048' | 'EC P-256', alternativeNames: Parameters<typeof makeCertificate>[0]['alternativeNames']) {
    const now = t.clock.now().getTime();
    const { pem } = await makeCertificate({ subject, key, alternativeNames, notBefore: new Date(now - DAY), notAfter: new Date(now + 30 * DAY) });
    const base = `/api/organizations/${w.customer.id}/certificates`;
    const created = await t.call(w.issuer.email, { method: 'POST', url: base, payload: { certificate: pem } });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.call(w.member.email, { method: 'GET', url: `${base}/${encodeURIComponent(created.json().distinguished_name)}` });
    expect(res.statusCode).toBe(200);
    // The upload answers with the facts of its own parse: those the details read from the stored PEM.
    const facts = (body: Record<string, unknown>) => Object.fromEntries(FACTS.map((name) => [name, body[name]]));
    expect(facts(created.json())).toEqual(facts(res.json()));
    return { pem, body: res.json() };
  }

  it('shows an RSA certificate\'s issuer, fingerprint, alternative names of each kind and key size', async () => {
    const cn = `rsa-${uniqueTag()}.contoso.example`;
    const { pem, body } = await uploaded(`C=DE, O=Contoso, CN=${cn}`, 'RSA 2048', [
      { type: 'dns', value: cn }, { type: 'dns', value: `*.${cn}` }, { type: 'ip', value: '192.0.2.10' }, { type: 'ip', value: '2001:db8::1' },
      { type: 'email', value: 'ops@contoso.example' }, { type: 'url', value: 'https://contoso.example/gw' },
    ]);
    expect(body).toMatchObject({
      // Self-signed: the issuer is the subject, written the same way.
      distinguished_name: `CN=${cn},O=Contoso,C=DE`,
      issuer: `CN=${cn},O=Contoso,C=DE`,
      fingerprint_sha256: opensslFingerprint(pem),
      subject_alternative_names: [
        { type: 'DNS', value: cn }, { type: 'DNS', value: `*.${cn}` }, { type: 'IP', value: '192.0.2.10' }, { type: 'IP', value: '2001:db8::1' },
        { type: 'email', value: 'ops@contoso.example' }, { type: 'URI', value: 'https://contoso.example/gw' },
      ],
      key_algorithm: 'RSA',
      key_size: 2048,
      key_curve: null,
      signature_algorithm: 'sha256WithRSAEncryption',
    });
    expect(body.fingerprint_sha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(body.fingerprint_sha256).toBe(new X509Certificate(pem).fingerprint256);
  });

  it('shows an EC certificate\'s curve, and stores the fingerprint the details show for the CSV exports', async () => {
    const cn = `ec-${uniqueTag()}.contoso.example`;
    const { pem, body } = await uploaded(`O=Contoso, CN=${cn}`, 'EC P-256', [{ type: 'dns', value: cn }, { type: 'ip', value: '198.51.100.7' }]);
    expect(body).toMatchObject({
      issuer: `CN=${cn},O=Contoso`,
      fingerprint_sha256: opensslFingerprint(pem),
      subject_alternative_names: [{ type: 'DNS', value: cn }, { type: 'IP', value: '198.51.100.7' }],
      key_algorithm: 'EC',
      key_size: 256,
      key_curve: 'P-256',
    });
    const stored = await t.db.selectFrom('certificates').select('fingerprint_sha256').where('distinguished_name', '=', body.distinguished_name).executeTakeFirstOrThrow();
    expect(stored.fingerprint_sha256).toBe(body.fingerprint_sha256);
  });

  it('answers an empty list for a certificate without alternative names', async () => {
    const { body } = await uploaded(`CN=plain-${uniqueTag()}`, 'EC P-256', undefined);
    expect(body.subject_alternative_names).toEqual([]);
  });
});

describe.each(dialects)('migration 0024 on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => database?.drop());

  it('fills in the fingerprint of every certificate already there, over several batches', async () => {
    const { db } = database;
    // Down and up again: the column goes, the table's triggers stay (SQLite drops a column only with them set aside).
    expect((await migrator(db).migrateTo(BEFORE_FINGERPRINTS)).error).toBeUndefined();
    const make = factories({ db, clock: { now: () => new Date('2026-03-15T10:00:00Z') } });
    const org = await make.organization({});
    const { pem } = await makeCertificate({ subject: 'CN=template', notBefore: new Date('2026-01-01'), notAfter: new Date('2027-01-01'), key: 'RSA 2048' });
    const { fingerprint_sha256, ...parsed } = parseCertificatePem(pem);
    const other = parseCertificatePem((await makeCertificate({ subject: 'CN=other', notBefore: new Date('2026-01-01'), notAfter: new Date('2027-01-01') })).pem);
    // 1,201 rows, so the migration's batches of 500 end on a short one; every other row another certificate.
    const rows = Array.from({ length: 1201 }, (_, i) => {
      const source = i % 2 ? other : parsed;
      const dn = `CN=row-${String(i).padStart(5, '0')}`;
      return {
        distinguished_name: dn, dn_search: dn.toLowerCase(), organization_id: org.id, description: '', owner_member_id: null, approver_member_id: null,
        date_not_before: source.date_not_before, date_not_after: source.date_not_after, date_approved: null, date_revoked: null, date_expiry_acknowledged: null,
        date_created: '2026-03-01T00:00:00.000Z', certificate_pem: source.certificate_pem, serial_number: source.serial_number, signature: source.signature,
        signature_algorithm: source.signature_algorithm, version: source.version,
      };
    });
    for (let i = 0; i < rows.length; i += 200) await db.insertInto('certificates').values(rows.slice(i, i + 200)).execute();
    // The table's triggers came back with the down migration: the inserts moved the organization's archive version.
    const archive = await db.selectFrom('archive_versions').select('version').where('organization_id', '=', org.id).executeTakeFirst();
    expect(Number(archive?.version)).toBeGreaterThan(0);
    expect((await migrator(db).migrateToLatest()).error).toBeUndefined();
    const stored = await db.selectFrom('certificates').select(['distinguished_name', 'fingerprint_sha256']).orderBy('distinguished_name').execute();
    expect(stored).toHaveLength(1201);
    expect(stored.filter((r, i) => r.fingerprint_sha256 !== (i % 2 ? other.fingerprint_sha256 : fingerprint_sha256))).toEqual([]);
    // What the migration wrote is what an upload writes: Node's fingerprint of the same certificate.
    expect(fingerprint_sha256).toBe(new X509Certificate(pem).fingerprint256);
  });
});
