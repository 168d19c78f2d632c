/**
 * The archive built in pieces (archive.ts): whatever the builder kept from earlier builds, the
 * same rows give the same bytes as a build from nothing, and the pieces read as one tar whose
 * manifest is the JSON of all entries. Both engines; through the worker where the database has a
 * location (PostgreSQL here), in the process for in-memory SQLite.
 */
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories } from '../../../test/support/factories';
import { makeCertificate } from '../../../scripts/make-certificate';
import { CertsArchive } from './archive';
import { buildCertsArchive, closeArchiveBuilder } from './archive-builder';

const dialects = await testDialects();

/** The files of an uncompressed ustar stream, by name. */
function tarFiles(tar: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('ascii').trim(), 8);
    files.set(name, tar.subarray(at + 512, at + 512 + size).toString('utf8'));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

describe.each(dialects)('certificate archive in pieces on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** A partner and its customer of their own: one test renames the partner, and certificates land in both. */
  const organizations = async () => {
    const partner = await make.organization({ role: 'PARTNER' });
    return { partner, customer: await make.organization({ parent: partner }) };
  };

  async function upload(organizationId: string, cn: string, approve: boolean) {
    const notBefore = new Date(t.clock.now().getTime() - 86_400_000);
    const { pem } = await makeCertificate({ subject: `CN=${cn},O=Pieces`, notBefore, notAfter: new Date(notBefore.getTime() + 30 * 86_400_000) });
    const dn = `CN=${cn},O=Pieces`;
    await t.db.insertInto('certificates').values({
      distinguished_name: dn, dn_search: dn.toLowerCase(), organization_id: organizationId, owner_member_id: null, description: cn,
      certificate_pem: pem, serial_number: cn, signature: 'x', signature_algorithm: 'x', version: 3,
      date_not_before: new Date(t.clock.now().getTime() - 86_400_000).toISOString(), date_not_after: new Date(t.clock.now().getTime() + 20 * 86_400_000).toISOString(),
      date_approved: approve ? t.clock.now().toISOString() : null, approver_member_id: null, date_revoked: null, date_expiry_acknowledged: null,
      date_created: t.clock.now().toISOString(),
    }).execute();
    return dn;
  }

  it('gives the bytes of a build from nothing after every change, and reads as one tar with the whole manifest', async () => {
    const { partner, customer } = await organizations();
    const kept = new CertsArchive(t.db);
    await kept.build(t.clock.now());
    const waiting = await upload(customer.id, `pieces-1-${customer.id}.contoso.example`, false);
    await upload(partner.id, `pieces-2-${partner.id}.northwind.example`, true);
    const renamed = `${partner.name} Renamed`;
    const changes = [
      () => t.db.updateTable('certificates').set({ date_approved: t.clock.now().toISOString() }).where('distinguished_name', '=', waiting).execute(),
      () => t.db.updateTable('certificates').set({ date_revoked: t.clock.now().toISOString() }).where('distinguished_name', '=', waiting).execute(),
      () => t.db.updateTable('organizations').set({ organization_name: renamed }).where('organization_id', '=', partner.id).execute(),
    ];
    for (const change of [async () => {}, ...changes]) {
      await change();
      const incremental = await kept.build(t.clock.now(), true);
      const fromNothing = await new CertsArchive(t.db).build(t.clock.now());
      expect(incremental.archive.body.equals(fromNothing.archive.body)).toBe(true);
      expect(incremental.archive.etag).toBe(fromNothing.archive.etag);

      const files = tarFiles(gunzipSync(incremental.archive.body));
      expect(files.get('manifest.json')).toBe(`${JSON.stringify({ format: 1, certificates: incremental.files }, null, 2)}\n`);
      expect([...files.keys()]).toEqual(['manifest.json', ...incremental.files!.map((f) => f.file)]);
    }
    const last = await kept.build(t.clock.now(), true);
    expect(last.files!.map((f) => f.organization_name)).toContain(renamed);
    expect(last.files!.map((f) => f.distinguished_name)).not.toContain(waiting);
  });

  it('cuts a large organization into runs and, after each change or window passing, gives the bytes of a build from nothing', async () => {
    const { partner } = await organizations();
    const { pem } = await makeCertificate({ subject: 'CN=runs,O=Pieces', notBefore: new Date(t.clock.now().getTime() - 86_400_000), notAfter: new Date(t.clock.now().getTime() + 86_400_000) });
    const day = 86_400_000;
    const start = t.clock.now().getTime();
    const dns: string[] = [];
    for (let batch = 0; batch < 12; batch++) {
      await t.db.insertInto('certificates').values(Array.from({ length: 100 }, (_, j) => {
        const i = batch * 100 + j;
        // Fixed DNs, not random ones: where runs end follows from the DN (archive.ts endsRun), and these end
        // runs after rows 136, 349, 415, 666, 886, 1027 and 1052, so the organization is always cut.
        const dn = `CN=run-${String(i).padStart(4, '0')}.northwind.example,O=Runs`;
        dns.push(dn);
        return {
          distinguished_name: dn, dn_search: dn.toLowerCase(), organization_id: partner.id, owner_member_id: null, description: dn,
          certificate_pem: pem, serial_number: `run-${i}`, signature: 'x', signature_algorithm: 'x', version: 3,
          // Windows close on different days, some open later: time alone changes the selection.
          date_not_before: new Date(start - day + (i % 50 === 7 ? 3 * day : 0)).toISOString(),
          date_not_after: new Date(start + (1 + (i % 9)) * day).toISOString(),
          date_approved: i % 10 === 3 ? null : new Date(start).toISOString(), approver_member_id: null, date_revoked: null, date_expiry_acknowledged: null,
          date_created: new Date(start).toISOString(),
        };
      })).execute();
    }
    const kept = new CertsArchive(t.db);
    const first = await kept.build(t.clock.now(), true);
    // More than one run in the organization: its pieces are cut where the DNs say.
    expect(first.files!.filter((f) => f.organization_id === partner.id).length).toBeGreaterThan(900);
    expect(kept.keptState().organizations.find(([id]) => id === partner.id)![5].length).toBeGreaterThan(1);
    const changes = [
      () => t.db.updateTable('certificates').set({ date_approved: t.clock.now().toISOString() }).where('distinguished_name', '=', dns[603]).execute(),
      () => t.db.updateTable('certificates').set({ date_revoked: t.clock.now().toISOString() }).where('distinguished_name', '=', dns[420]).execute(),
      () => t.db.deleteFrom('certificates').where('distinguished_name', '=', dns[421]).execute(),
      () => t.db.updateTable('certificates').set({ date_created: new Date(start + 1000).toISOString() }).where('distinguished_name', '=', dns[900]).execute(),
      async () => t.clock.set(new Date(start + 1.5 * day)), // windows closed
      async () => t.clock.set(new Date(start + 2.5 * day)), // more closed, some opened
      async () => t.clock.set(new Date(start + 0.5 * day)), // the clock set back
      () => t.db.updateTable('organizations').set({ organization_name: `${partner.name} Runs` }).where('organization_id', '=', partner.id).execute(),
    ];
    try {
      for (const [index, change] of changes.entries()) {
        const beforeBody = (await kept.build(t.clock.now())).archive.body;
        const before = kept.keptState();
        await change();
        const incremental = await kept.build(t.clock.now(), true);
        // One organization read again; of its runs, only the one a row change fell in compressed again (time passing changes them all).
        expect(kept.timing.stale).toBe(1);
        if (index < 4) expect(kept.timing.compressed).toBe(1);
        const fromNothing = await new CertsArchive(t.db).build(t.clock.now());
        expect(incremental.archive.etag).toBe(fromNothing.archive.etag);
        expect(incremental.archive.body.equals(fromNothing.archive.body)).toBe(true);
        expect(incremental.until).toBe(fromNothing.until);
        const files = tarFiles(gunzipSync(incremental.archive.body));
        expect(files.get('manifest.json')).toBe(`${JSON.stringify({ format: 1, certificates: incremental.files }, null, 2)}\n`);
        expect([...files.keys()]).toEqual(['manifest.json', ...incremental.files!.map((f) => f.file)]);
        // A builder that takes over what another kept (a new archive process) gives the same bytes.
        const restored = new CertsArchive(t.db);
        restored.restore(before, beforeBody);
        expect((await restored.build(t.clock.now())).archive.etag).toBe(fromNothing.archive.etag);
      }
    } finally {
      // The 1,200 rows would weigh on every later build of this database.
      await t.db.deleteFrom('certificates').where('distinguished_name', 'in', dns).execute();
    }
  });

  it('writes an empty manifest when nothing is trusted', async () => {
    // Something trusted first, then every certificate of the database revoked for the build, and put back after.
    const { customer } = await organizations();
    await upload(customer.id, `trusted-${customer.id}.contoso.example`, true);
    expect((await new CertsArchive(t.db).build(t.clock.now(), true)).files!.length).toBeGreaterThan(0);
    const unrevoked = (await t.db.selectFrom('certificates').select('distinguished_name').where('date_revoked', 'is', null).execute()).map((r) => r.distinguished_name);
    await t.db.updateTable('certificates').set({ date_revoked: t.clock.now().toISOString() }).where('distinguished_name', 'in', unrevoked).execute();
    try {
      const { archive, files } = await new CertsArchive(t.db).build(t.clock.now(), true);
      expect(files).toEqual([]);
      expect([...tarFiles(gunzipSync(archive.body))]).toEqual([['manifest.json', `${JSON.stringify({ format: 1, certificates: [] }, null, 2)}\n`]]);
    } finally {
      await t.db.updateTable('certificates').set({ date_revoked: null }).where('distinguished_name', 'in', unrevoked).execute();
    }
  });

  it('gives the same archive from the worker (or the process) as from the builder itself', async () => {
    const { partner, customer } = await organizations();
    await upload(customer.id, `worker-1-${customer.id}.contoso.example`, true);
    await upload(partner.id, `worker-2-${partner.id}.northwind.example`, true);
    const direct = await new CertsArchive(t.db).build(t.clock.now(), true);
    const built = await buildCertsArchive(t.db, t.clock.now(), true);
    expect(built.archive.etag).toBe(direct.archive.etag);
    expect(built.files).toEqual(direct.files);
    expect(direct.files!.length).toBeGreaterThanOrEqual(2);
    expect(built.until).toBe(direct.until);
    await closeArchiveBuilder(t.db);
  });
});
