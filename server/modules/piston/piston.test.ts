import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { Readable } from 'node:stream';
import { parse as parseHcl } from '@cdktf/hcl2json';
import { Parser } from 'tar';
import { testDialects } from '../../../test/support/databases';
import { useTestApp, type TestApp } from '../../../test/support/test-app';
import { makeCertificate } from '../../../scripts/make-certificate';

const dialects = await testDialects();
const DEVOPS = 'devops@operator.example';

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

async function routes(t: TestApp) {
  const res = await t.call(DEVOPS, { method: 'GET', url: '/api/piston/routes.hcl' });
  expect(res.statusCode).toBe(200);
  return { res, parsed: (await parseHcl('routes.hcl', res.body)) as Routes };
}

async function archive(t: TestApp) {
  const res = await t.call(DEVOPS, { method: 'GET', url: '/api/piston/certs' });
  expect(res.statusCode).toBe(200);
  return { res, files: await untar(res.rawPayload) };
}

describe.each(dialects)('download-gateway export on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('writes routes.hcl that a standard HCL parser reads, one block per resource in ordinal order', async () => {
    const { res, parsed } = await routes(t);
    const blocks = Object.values(parsed.resource).map((b) => b[0]);
    expect(blocks.map((b) => b.ordinal).sort((a, b) => a - b)).toEqual([10, 20, 30, 40, 50]);
    // The parser's object loses the file's order; the text keeps it.
    expect([...res.body.matchAll(/ordinal\s+=\s+(\d+)/g)].map((m) => Number(m[1]))).toEqual([10, 20, 30, 40, 50]);
    const beta = blocks.find((b) => b.name === 'Linux packages (beta)')!;
    expect(beta).toMatchObject({ access: 'RESTRICTED', type: 'LINUX_PACKAGE', path_pattern: '/packages/beta/**', location: '/srv/packages/beta', organizations: [t.org.contoso] });
    const stable = blocks.find((b) => b.access === 'DEFAULT')!;
    // Every organization that is not banned: Fabrikam is banned.
    expect([...stable.organizations].sort()).toEqual([t.org.contoso, t.org.northwind, t.org.operator].sort());
  });

  it('archives exactly the approved, unrevoked, currently valid certificates of organizations not banned', async () => {
    const { files } = await archive(t);
    const manifest = JSON.parse(files.get('manifest.json')!);
    const dns = manifest.certificates.map((c: { distinguished_name: string }) => c.distinguished_name).sort();
    expect(dns).toEqual(['CN=edge-1.northwind.example,O=Northwind Networks,C=US', 'CN=gw-berlin.contoso.example,OU=Gateways,O=Contoso,C=DE']);
    for (const entry of manifest.certificates) {
      const pem = files.get(entry.file)!;
      expect(entry.file.startsWith(`${entry.organization_id}/`)).toBe(true);
      expect(new X509Certificate(pem).subject).toContain(entry.distinguished_name.split(',')[0].slice(3));
    }
  });

  it('is an archive that GNU tar reads without complaint, with the same files', async () => {
    const { res, files } = await archive(t);
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
    const first = await archive(t);
    const second = await archive(t);
    expect(second.res.rawPayload.equals(first.res.rawPayload)).toBe(true);
    const etag = String(first.res.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const cached = await t.call(DEVOPS, { method: 'GET', url: '/api/piston/certs', headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    const r = (await routes(t)).res;
    expect((await t.call(DEVOPS, { method: 'GET', url: '/api/piston/routes.hcl', headers: { 'if-none-match': `"other", ${r.headers.etag}` } })).statusCode).toBe(304);
  });

  it('reflects approval, revocation, expiry, bans and grants at once', async () => {
    const dnsInArchive = async () => JSON.parse((await archive(t)).files.get('manifest.json')!).certificates.map((c: { distinguished_name: string }) => c.distinguished_name);
    const now = t.clock.now().getTime();
    const { pem } = await makeCertificate({ subject: 'CN=short.contoso.example', notBefore: new Date(now - 1000), notAfter: new Date(now + 2 * 86_400_000) });
    await t.call('issuer@contoso.example', { method: 'POST', url: `/api/organizations/${t.org.contoso}/certificates`, payload: { description: '', certificate: pem } });
    expect(await dnsInArchive()).not.toContain('CN=short.contoso.example');
    await t.call('approver@operator.example', { method: 'POST', url: `/api/approve/${encodeURIComponent('CN=short.contoso.example')}` });
    expect(await dnsInArchive()).toContain('CN=short.contoso.example');
    t.clock.advanceDays(3);
    expect(await dnsInArchive()).not.toContain('CN=short.contoso.example');
    t.clock.advanceDays(-3);

    const berlin = 'CN=gw-berlin.contoso.example,OU=Gateways,O=Contoso,C=DE';
    await t.call('approver@operator.example', { method: 'POST', url: `/api/organizations/${t.org.contoso}/certificates/${encodeURIComponent(berlin)}/revoke` });
    expect(await dnsInArchive()).not.toContain(berlin);

    await t.db.updateTable('organizations').set({ date_organization_banned: t.clock.now().toISOString() }).where('organization_id', '=', t.org.contoso).execute();
    expect(await dnsInArchive()).not.toContain('CN=short.contoso.example');
    const { parsed } = await routes(t);
    const beta = Object.values(parsed.resource).map((b) => b[0]).find((b) => b.name === 'Linux packages (beta)')!;
    expect(beta.organizations).toEqual([]);
    await t.db.updateTable('organizations').set({ date_organization_banned: null }).where('organization_id', '=', t.org.contoso).execute();

    const lab = Object.entries(parsed.resource).find(([, b]) => b[0].name === 'Lab images')![0];
    const before = (await routes(t)).res.headers.etag;
    await t.call('admin@operator.example', { method: 'POST', url: `/api/resources/${lab}/add?organization=${t.org.contoso}` });
    const after = await routes(t);
    expect(after.res.headers.etag).not.toBe(before);
    expect(Object.values(after.parsed.resource).map((b) => b[0]).find((b) => b.name === 'Lab images')!.organizations).toContain(t.org.contoso);
  });

  it('tells statistics: ETags, unapproved counts and the latest certificate of each event', async () => {
    const res = await t.call(DEVOPS, { method: 'GET', url: '/api/piston/statistics' });
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats.routes.etag).toBe((await routes(t)).res.headers.etag);
    expect(stats.certs.etag).toBe((await archive(t)).res.headers.etag);
    const contoso = stats.organizations.find((o: { organization_id: string }) => o.organization_id === t.org.contoso);
    expect(contoso.cert_unapproved).toBe(1);
    expect(contoso.latest.revoke.distinguished_name).toBe('CN=gw-berlin.contoso.example,OU=Gateways,O=Contoso,C=DE');
    // Revoked: not in the archive, so no file name (the archive's own selection decides).
    expect(contoso.latest.revoke.file_name).toBeNull();
    expect(contoso.latest.valid.file_name).toMatch(new RegExp(`^${t.org.contoso}/[0-9a-f]+\\.pem$`));
    expect(contoso.latest.expired.distinguished_name).toContain('gw-munich');
    // "valid" is the gateway's view: approved and not revoked (gw-hamburg is in its window but not approved).
    expect(contoso.latest.valid.distinguished_name).toContain('short.contoso.example');
    const northwind = stats.organizations.find((o: { organization_id: string }) => o.organization_id === t.org.northwind);
    expect(northwind.latest.valid.distinguished_name).toContain('edge-1');
  });

  it('names in statistics only files the archive holds, and the newest file of every organization in it, with a banned organization in the data', async () => {
    // Fabrikam is banned; give it the newest approved, valid certificate of all, which the archive must leave out.
    const template = await t.db.selectFrom('certificates').selectAll().where('distinguished_name', '=', 'CN=edge-1.northwind.example,O=Northwind Networks,C=US').executeTakeFirstOrThrow();
    const recent = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const banned = 'CN=gw.fabrikam.example,O=Fabrikam';
    await t.db.insertInto('certificates').values({
      ...template, distinguished_name: banned, dn_search: banned.toLowerCase(), organization_id: t.org.fabrikam, owner_member_id: null, approver_member_id: null,
      date_created: recent, date_approved: recent, date_not_before: recent, date_revoked: null, date_expiry_acknowledged: null,
    }).execute();
    try {
      const stats = (await t.call(DEVOPS, { method: 'GET', url: '/api/piston/statistics' })).json() as {
        certs: { etag: string };
        organizations: Array<{ organization_id: string; latest: Record<string, { file_name: string | null; distinguished_name: string } | null> }>;
      };
      const { res, files } = await archive(t);
      expect(stats.certs.etag).toBe(res.headers.etag);
      const manifest = JSON.parse(files.get('manifest.json')!) as { certificates: Array<{ file: string; organization_id: string; distinguished_name: string; date_not_before: string }> };
      expect(manifest.certificates.map((c) => c.distinguished_name)).not.toContain(banned);

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
      const fabrikam = stats.organizations.find((o) => o.organization_id === t.org.fabrikam)!;
      expect(fabrikam.latest.valid).toBeNull();
      expect(fabrikam.latest.approve).toMatchObject({ distinguished_name: banned, file_name: null });
      expect(fabrikam.latest.upload).toMatchObject({ distinguished_name: banned, file_name: null });
    } finally {
      await t.db.deleteFrom('certificates').where('distinguished_name', '=', banned).execute();
    }
  });

  it('refuses people who are not operator DEVOPS, and anonymous callers', async () => {
    for (const url of ['/api/piston/routes.hcl', '/api/piston/certs', '/api/piston/statistics']) {
      expect((await t.call(null, { method: 'GET', url })).statusCode).toBe(401);
      for (const email of ['supervisor@operator.example', 'admin@northwind.example', 'issuer@contoso.example']) {
        expect((await t.call(email, { method: 'GET', url })).statusCode, `${email} ${url}`).toBe(403);
      }
      expect((await t.call('member@fabrikam.example', { method: 'GET', url })).statusCode).toBe(403);
    }
  });
});
