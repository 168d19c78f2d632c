import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { Readable } from 'node:stream';
import { parse as parseHcl } from '@cdktf/hcl2json';
import { Parser } from 'tar';
import { testDialects } from '../../../test/support/databases';
import { useTestApp, type TestApp } from '../../../test/support/test-app';
import { makeCertificate } from '../../../scripts/make-certificate';
import { factories, type Cooperation } from '../../../test/support/factories';

const dialects = await testDialects();

/** Reads a gzipped tar with node-tar: file name → text. */
async function untar(body: Buffer): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      onReadEntry: (entry) => {
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => chunks.push(c));
        entry.on('end', () => files.set(entry.path, Buffer.concat(chunks).toString('utf8')));
      },
    });
    parser.on('end', resolve);
    parser.on('error', reject);
    Readable.from(body).pipe(parser);
  });
  return files;
}

type Routes = { resource: Record<string, Array<{ ordinal: number; name: string; access: string; organizations: string[]; path_pattern: string; location: string; type: string }>> };

async function routes(t: TestApp, devops: string) {
  const res = await t.call(devops, { method: 'GET', url: '/api/piston/routes.hcl' });
  expect(res.statusCode).toBe(200);
  return { res, parsed: (await parseHcl('routes.hcl', res.body)) as Routes };
}

async function archive(t: TestApp, devops: string) {
  const res = await t.call(devops, { method: 'GET', url: '/api/piston/certs' });
  expect(res.statusCode).toBe(200);
  return { res, files: await untar(res.rawPayload) };
}

describe.each(dialects)('download-gateway export on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The operator's DevOps, who pulls the exports, and the other people; the exported rows are made by each test. */
  let w: Cooperation;
  let DEVOPS: string;
  beforeAll(async () => {
    w = await make.cooperation();
    DEVOPS = w.devops.email;
  });
  type Manifest = { certificates: Array<{ distinguished_name: string; organization_id: string; file: string; date_not_before: string }> };
  const manifestOf = async () => JSON.parse((await archive(t, DEVOPS)).files.get('manifest.json')!) as Manifest;
  const blocksOf = (parsed: Routes) => Object.entries(parsed.resource).map(([id, b]) => ({ id, ...b[0] }));
  /** What the archive must hold, read from the rows: approved, not revoked, in its window now, of an organization not banned. */
  const trusted = async () => {
    const at = t.clock.now().toISOString();
    const rows = await t.db.selectFrom('certificates as c').innerJoin('organizations as o', 'o.organization_id', 'c.organization_id').select('c.distinguished_name')
      .where('c.date_approved', 'is not', null).where('c.date_revoked', 'is', null).where('c.date_not_before', '<=', at).where('c.date_not_after', '>', at)
      .where('o.date_organization_banned', 'is', null).execute();
    return rows.map((r) => r.distinguished_name).sort();
  };

  it('writes routes.hcl that a standard HCL parser reads, one block per resource in ordinal order', async () => {
    const customer = await make.organization({ parent: w.partner });
    const beta = await make.resource({ name: 'Linux packages (beta)', type: 'LINUX_PACKAGE', path_pattern: '/packages/beta/**', location: '/srv/packages/beta', grants: [customer] });
    const stable = await make.resource({ access: 'DEFAULT', type: 'LINUX_PACKAGE' });
    await make.resource({ access: 'PUBLIC' });
    const { res, parsed } = await routes(t, DEVOPS);
    const blocks = blocksOf(parsed);
    const ordinals = (await t.db.selectFrom('resources').select('ordinal').orderBy('ordinal').execute()).map((r) => r.ordinal);
    expect(ordinals.length).toBeGreaterThanOrEqual(3);
    expect(blocks.map((b) => b.ordinal).sort((a, b) => a - b)).toEqual(ordinals);
    // The parser's object loses the file's order; the text keeps it.
    expect([...res.body.matchAll(/ordinal\s+=\s+(\d+)/g)].map((m) => Number(m[1]))).toEqual(ordinals);
    expect(blocks.find((b) => b.id === beta.id)).toMatchObject({ access: 'RESTRICTED', type: 'LINUX_PACKAGE', path_pattern: '/packages/beta/**', location: '/srv/packages/beta', organizations: [customer.id] });
    // A DEFAULT resource: every organization that is not banned.
    const open = (await t.db.selectFrom('organizations').select('organization_id').where('date_organization_banned', 'is', null).execute()).map((o) => o.organization_id);
    const block = blocks.find((b) => b.id === stable.id)!;
    expect([...block.organizations].sort()).toEqual(open.sort());
    expect(block.organizations).toContain(customer.id);
    expect(block.organizations).not.toContain(w.banned.id);
  });

  it('archives exactly the approved, unrevoked, currently valid certificates of organizations not banned', async () => {
    const customer = await make.organization({ parent: w.partner });
    const banned = await make.organization({ parent: w.operator, banned: true });
    const valid = await make.certificate(customer, 'approved');
    for (const state of ['requested', 'future', 'expired', 'acknowledged', 'revoked'] as const) await make.certificate(customer, state);
    await make.certificate(banned, 'approved');
    const manifest = await manifestOf();
    const ours = manifest.certificates.filter((c) => [customer.id, banned.id].includes(c.organization_id)).map((c) => c.distinguished_name);
    expect(ours).toEqual([valid.dn]);
    // And the whole archive is exactly what the rows say.
    expect(manifest.certificates.map((c) => c.distinguished_name).sort()).toEqual(await trusted());
    const { files } = await archive(t, DEVOPS);
    for (const entry of manifest.certificates) {
      const pem = files.get(entry.file)!;
      expect(entry.file.startsWith(`${entry.organization_id}/`)).toBe(true);
      expect(new X509Certificate(pem).subject).toContain(entry.distinguished_name.split(',')[0].slice(3));
    }
  });

  it('is an archive that GNU tar reads without complaint, with the same files', async () => {
    await make.certificate(await make.organization({ parent: w.partner }), 'approved');
    const { res, files } = await archive(t, DEVOPS);
    // A second, independent reader, which says on stderr what it finds amiss (a missing end, a bad checksum).
    const gnuTar = (...args: string[]) => {
      // TZ=UTC: the listing shows times in local time, and the headers say 2000-01-01T00:00Z.
      const run = spawnSync('tar', args, { input: res.rawPayload, env: { ...process.env, TZ: 'UTC' } });
      expect(run.stderr.toString('utf8')).toBe('');
      expect(run.status).toBe(0);
      return run.stdout.toString('utf8');
    };
    const listing = gnuTar('-tvzf', '-');
    const names = listing.trim().split('\n').map((line) => line.split(/\s+/).pop());
    expect(names).toEqual([...files.keys()]);
    expect(names[0]).toBe('manifest.json');
    for (const line of listing.trim().split('\n')) expect(line).toMatch(/^-rw-r--r-- 0\/0 .* 2000-01-01 /);
    const second = gnuTar('-xzOf', '-', names[1]!);
    expect(second).toBe(files.get(names[1]!));
    expect(second).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n?$/);
  });

  it('is byte-identical when nothing changed, with strong ETags and 304 on If-None-Match', async () => {
    await make.certificate(await make.organization({ parent: w.partner }), 'approved');
    await make.resource();
    const first = await archive(t, DEVOPS);
    const second = await archive(t, DEVOPS);
    expect(second.res.rawPayload.equals(first.res.rawPayload)).toBe(true);
    const etag = String(first.res.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const cached = await t.call(DEVOPS, { method: 'GET', url: '/api/piston/certs', headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    const r = (await routes(t, DEVOPS)).res;
    expect((await t.call(DEVOPS, { method: 'GET', url: '/api/piston/routes.hcl', headers: { 'if-none-match': `"other", ${r.headers.etag}` } })).statusCode).toBe(304);
  });

  it('reflects approval, revocation, expiry, bans and grants at once', async () => {
    const customer = await make.organization({ parent: w.partner });
    const issuer = await make.member(customer, { role: 'ISSUER' });
    const berlin = await make.certificate(customer, 'approved');
    const beta = await make.resource({ grants: [customer] });
    const lab = await make.resource();
    const dnsInArchive = async () => (await manifestOf()).certificates.map((c) => c.distinguished_name);
    const now = t.clock.now().getTime();
    const { pem } = await makeCertificate({ subject: `CN=short-${customer.id}.contoso.example`, notBefore: new Date(now - 1000), notAfter: new Date(now + 2 * 86_400_000) });
    const upload = await t.call(issuer.email, { method: 'POST', url: `/api/organizations/${customer.id}/certificates`, payload: { description: '', certificate: pem } });
    const short = upload.json().distinguished_name as string;
    expect(await dnsInArchive()).not.toContain(short);
    await t.call(w.approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(short)}` });
    expect(await dnsInArchive()).toContain(short);
    t.clock.advanceDays(3);
    expect(await dnsInArchive()).not.toContain(short);
    t.clock.advanceDays(-3);

    expect(await dnsInArchive()).toContain(berlin.dn);
    await t.call(w.approver.email, { method: 'POST', url: `/api/organizations/${customer.id}/certificates/${encodeURIComponent(berlin.dn)}/revoke` });
    expect(await dnsInArchive()).not.toContain(berlin.dn);

    await t.db.updateTable('organizations').set({ date_organization_banned: t.clock.now().toISOString() }).where('organization_id', '=', customer.id).execute();
    expect(await dnsInArchive()).not.toContain(short);
    const { parsed } = await routes(t, DEVOPS);
    expect(blocksOf(parsed).find((b) => b.id === beta.id)!.organizations).toEqual([]);
    await t.db.updateTable('organizations').set({ date_organization_banned: null }).where('organization_id', '=', customer.id).execute();
    expect(await dnsInArchive()).toContain(short);

    const before = (await routes(t, DEVOPS)).res.headers.etag;
    await t.call(w.operatorAdmin.email, { method: 'POST', url: `/api/resources/${lab.id}/add?organization=${customer.id}` });
    const after = await routes(t, DEVOPS);
    expect(after.res.headers.etag).not.toBe(before);
    expect(blocksOf(after.parsed).find((b) => b.id === lab.id)!.organizations).toContain(customer.id);
  });

  it('tells statistics: ETags, unapproved counts and the latest certificate of each event', async () => {
    const customer = await make.organization({ parent: w.partner });
    await make.certificate(customer, 'requested');
    await make.certificate(customer, 'approved', { from: -30 });
    const newest = await make.certificate(customer, 'approved', { from: -5 });
    const revoked = await make.certificate(customer, 'revoked');
    const expired = await make.certificate(customer, 'expired');
    // A second organization: its valid certificate, and an approved one not yet valid (not in the archive).
    const other = await make.organization({ parent: w.operator });
    const edge = await make.certificate(other, 'approved');
    await make.certificate(other, 'future');
    const res = await t.call(DEVOPS, { method: 'GET', url: '/api/piston/statistics' });
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats.routes.etag).toBe((await routes(t, DEVOPS)).res.headers.etag);
    expect(stats.certs.etag).toBe((await archive(t, DEVOPS)).res.headers.etag);
    const ofCustomer = stats.organizations.find((o: { organization_id: string }) => o.organization_id === customer.id);
    expect(ofCustomer.cert_unapproved).toBe(1);
    expect(ofCustomer.latest.revoke.distinguished_name).toBe(revoked.dn);
    // Revoked: not in the archive, so no file name (the archive's own selection decides).
    expect(ofCustomer.latest.revoke.file_name).toBeNull();
    expect(ofCustomer.latest.valid.file_name).toMatch(new RegExp(`^${customer.id}/[0-9a-f]+\\.pem$`));
    expect(ofCustomer.latest.expired.distinguished_name).toBe(expired.dn);
    // "valid" is the gateway's view: approved and not revoked, the newest to enter the archive (the request is in its window but not approved).
    expect(ofCustomer.latest.valid.distinguished_name).toBe(newest.dn);
    const ofOther = stats.organizations.find((o: { organization_id: string }) => o.organization_id === other.id);
    expect(ofOther.latest.valid.distinguished_name).toBe(edge.dn);
  });

  it('names in statistics only files the archive holds, and the newest file of every organization in it, with a banned organization in the data', async () => {
    await make.certificate(await make.organization({ parent: w.partner }), 'approved');
    // A banned organization with an approved certificate in its window, which the archive must leave out.
    const banned = await make.organization({ parent: w.operator, banned: true });
    const certificate = await make.certificate(banned, 'approved');
    const stats = (await t.call(DEVOPS, { method: 'GET', url: '/api/piston/statistics' })).json() as {
      certs: { etag: string };
      organizations: Array<{ organization_id: string; latest: Record<string, { file_name: string | null; distinguished_name: string } | null> }>;
    };
    const { res, files } = await archive(t, DEVOPS);
    expect(stats.certs.etag).toBe(res.headers.etag);
    const manifest = JSON.parse(files.get('manifest.json')!) as Manifest;
    expect(manifest.certificates.map((c) => c.distinguished_name)).not.toContain(certificate.dn);

    // Every file that statistics names is in the archive.
    const named = stats.organizations.flatMap((o) => Object.values(o.latest).flatMap((l) => (l?.file_name ? [l.file_name] : [])));
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect([...files.keys()], name).toContain(name);

    // And the other way: the organizations with a latest valid certificate are exactly the archive's
    // folders, each naming the newest file of its folder.
    const archivedOrganizations = [...new Set(manifest.certificates.map((c) => c.organization_id))].sort();
    expect(stats.organizations.filter((o) => o.latest.valid).map((o) => o.organization_id).sort()).toEqual(archivedOrganizations);
    for (const organizationId of archivedOrganizations) {
      const newest = manifest.certificates.filter((c) => c.organization_id === organizationId).sort((a, b) => b.date_not_before.localeCompare(a.date_not_before))[0];
      expect(stats.organizations.find((o) => o.organization_id === organizationId)!.latest.valid).toMatchObject({ file_name: newest.file, distinguished_name: newest.distinguished_name });
    }

    // The banned organization's events are still told, without a file name.
    const ofBanned = stats.organizations.find((o) => o.organization_id === banned.id)!;
    expect(ofBanned.latest.valid).toBeNull();
    expect(ofBanned.latest.approve).toMatchObject({ distinguished_name: certificate.dn, file_name: null });
    expect(ofBanned.latest.upload).toMatchObject({ distinguished_name: certificate.dn, file_name: null });
  });

  it('refuses people who are not operator DEVOPS, and anonymous callers', async () => {
    for (const url of ['/api/piston/routes.hcl', '/api/piston/certs', '/api/piston/statistics']) {
      expect((await t.call(null, { method: 'GET', url })).statusCode).toBe(401);
      for (const email of [w.supervisor.email, w.partnerAdmin.email, w.issuer.email]) {
        expect((await t.call(email, { method: 'GET', url })).statusCode, `${email} ${url}`).toBe(403);
      }
      expect((await t.call(w.bannedMember.email, { method: 'GET', url })).statusCode).toBe(403);
      expect((await t.call(DEVOPS, { method: 'GET', url })).statusCode).toBe(200);
    }
  });
});
