/**
 * README's "Automation" example runs as written (issue 32): a key made for Northwind, the CI block of the README
 * run by bash with curl and jq against the portal listening on a port, an approver approving the certificate it
 * uploaded while it waits, and the license key it fetched being the license's.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { provideMasterSecret } from '../../server/modules/admin/master-secret';
import { makeCertificate } from '../../scripts/make-certificate';
import { useTestApp } from '../support/test-app';

const DAY = 86_400_000;
const t = useTestApp('sqlite');

/** The README's shell block that starts with `# automation-example`. */
function readmeExample(): string {
  const readme = fs.readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');
  const block = /```sh\n(# automation-example[^\n]*\n[\s\S]*?)```/.exec(readme);
  expect(block, 'the Automation example in README.md').not.toBeNull();
  return block![1];
}

it("runs README's Automation example against a started portal", { timeout: 60_000 }, async () => {
  await provideMasterSecret(t.db, t.app.masterSecret, 'the master secret of the README test', { email: null, organization_id: null, via: 'api' }, t.clock.now());
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const portal = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const org = t.org.northwind;
  const created = await t.call('admin@northwind.example', {
    method: 'POST', url: `/api/organizations/${org}/api-keys`,
    payload: { name: 'ci-gateway-build', roles: [{ role: 'ISSUER', scope: 'ORGANIZATION' }], date_expires: new Date(t.clock.now().getTime() + 30 * DAY).toISOString() },
  });
  expect(created.statusCode, created.body).toBe(201);
  const license = await t.db.selectFrom('licenses').select('license_id').where('organization_id', '=', org)
    .where('date_approved', 'is not', null).where('date_rejected', 'is', null).executeTakeFirstOrThrow();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-automation-'));
  const now = t.clock.now().getTime();
  const { pem } = await makeCertificate({ subject: 'O=Northwind Networks, CN=ci-build.northwind.example', notBefore: new Date(now - DAY), notAfter: new Date(now + 90 * DAY) });
  fs.writeFileSync(path.join(dir, 'gateway.pem'), pem);
  const script = spawn('bash', ['-euo', 'pipefail', '-c', readmeExample()], {
    cwd: dir, env: { PATH: process.env.PATH, PORTAL: portal, ORG: org, PORTAL_KEY: created.json().secret, LICENSE_ID: license.license_id },
  });
  let output = '';
  script.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => script.on('close', resolve));

  // The approver, once the script's upload is there.
  let dn: string | undefined;
  for (let i = 0; i < 100 && !dn; i++) {
    dn = (await t.db.selectFrom('certificates').select('distinguished_name').where('organization_id', '=', org).where('description', '=', 'built by CI').executeTakeFirst())?.distinguished_name;
    if (!dn) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(dn, output).toBeDefined();
  expect((await t.call('approver@operator.example', { method: 'POST', url: `/api/approve/${encodeURIComponent(dn!)}` })).statusCode).toBe(204);

  expect(await exited, output).toBe(0);
  const fetched = fs.readFileSync(path.join(dir, 'license.key'), 'utf8');
  const expected = await t.call('admin@northwind.example', { method: 'GET', url: `/api/licenses/${license.license_id}/license-key` });
  expect(fetched).toBe(expected.body);
  expect(fetched.length).toBeGreaterThan(20);
  const [record] = await t.db.selectFrom('audit_records').select(['message', 'member_email']).where('reason', '=', 'CERTIFICATE_UPLOADED').where('message', 'like', '%ci-build%').execute();
  expect(record).toEqual({ member_email: 'admin@northwind.example', message: expect.stringMatching(/^API key 'ci-gateway-build' of Northwind Networks/) });
  fs.rmSync(dir, { recursive: true, force: true });
});
