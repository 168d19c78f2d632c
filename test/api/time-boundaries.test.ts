/**
 * Time at the edges (issue 9): what the server answers at t − 1 ms, t and t + 1 ms of every
 * boundary, with the injected clock. The list filters and pending lists are SQL, the statuses are
 * common/status.ts: both must turn at the very same instant, and so must the gateway archive.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { Parser } from 'tar';
import { certificateStatus, licenseStatus } from '../../common/status';
import { makeCertificate } from '../../scripts/make-certificate';
import { testDialects } from '../support/databases';
import { useTestApp, type TestApp } from '../support/test-app';
import { factories, type Cooperation, type Org } from '../support/factories';

const dialects = await testDialects();
const DAY = 86_400_000;
const around = (t: number) => [t - 1, t, t + 1].map((ms) => new Date(ms));

async function archivedNames(t: TestApp, devops: string): Promise<string[]> {
  const res = await t.call(devops, { method: 'GET', url: '/api/piston/certs' });
  expect(res.statusCode).toBe(200);
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({ onReadEntry: (entry) => { names.push(entry.path); entry.resume(); } });
    parser.on('end', resolve);
    parser.on('error', reject);
    Readable.from(res.rawPayload).pipe(parser);
  });
  return names;
}

describe.each(dialects)('time at the edges on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The supervisor, who reads, and DevOps, who pulls the archive; each test's certificate or license is in a customer of its own. */
  let w: Cooperation;
  let SUPERVISOR: string;
  let customer: Org;
  beforeAll(async () => {
    w = await make.cooperation();
    SUPERVISOR = w.supervisor.email;
  });
  const certificates = () => `/api/organizations/${customer.id}/certificates`;
  const licenses = () => `/api/organizations/${customer.id}/licenses`;
  const archived = () => archivedNames(t, w.devops.email);

  /** Shown by the list with these filters (by name), as the server answers at `at`. */
  async function listed(url: string, name: string, filters: string, at: Date): Promise<boolean> {
    t.clock.set(at);
    const res = await t.call(SUPERVISOR, { method: 'GET', url: `${url}?name=${encodeURIComponent(name)}&${filters}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as Array<{ distinguished_name?: string; license_name?: string }>).some((r) => (r.distinguished_name ?? r.license_name ?? '').includes(name));
  }

  async function pending(kind: 'approve' | 'acknowledge', at: Date) {
    t.clock.set(at);
    const res = await t.call(SUPERVISOR, { method: 'GET', url: `/api/${kind}` });
    expect(res.statusCode).toBe(200);
    return res.json() as { certificates: Array<{ distinguished_name: string }>; licenses: Array<{ license_name: string }> };
  }

  it('turns a certificate valid at not-before and expired at not-after, in filters, pending lists, status and archive alike', async () => {
    t.clock.set('2026-03-15T10:00:00Z');
    customer = await make.organization({ parent: w.partner });
    // X.509 times have whole seconds; the boundaries are those instants.
    const notBefore = Date.parse('2026-03-20T08:30:00Z');
    const notAfter = Date.parse('2026-04-20T08:30:00Z');
    const cn = `edge-${dialect}.contoso.example`;
    const { pem } = await makeCertificate({ subject: `CN=${cn},O=Contoso,C=DE`, notBefore: new Date(notBefore), notAfter: new Date(notAfter) });
    const upload = await t.call(SUPERVISOR, { method: 'POST', url: certificates(), payload: { certificate: pem, description: 'edge' } });
    expect(upload.statusCode).toBe(201);
    const dn = upload.json().distinguished_name as string;
    expect((await t.call(SUPERVISOR, { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}` })).statusCode).toBeLessThan(300);
    const row = (await t.call(SUPERVISOR, { method: 'GET', url: `${certificates()}/${encodeURIComponent(dn)}` })).json();
    const file = `${customer.id}/`;

    // not-before: "hide valid" hides it from t on; the archive takes it from t on.
    const [beforeStart, atStart, afterStart] = around(notBefore);
    expect(await listed(certificates(), cn, 'hideValid=true', beforeStart)).toBe(true);
    expect(await listed(certificates(), cn, 'hideValid=true', atStart)).toBe(false);
    expect(await listed(certificates(), cn, 'hideValid=true', afterStart)).toBe(false);
    expect([beforeStart, atStart, afterStart].map((at) => certificateStatus(row, at).valid)).toEqual([false, true, true]);
    t.clock.set(beforeStart);
    const archivedBefore = await archived();
    t.clock.set(atStart);
    const archivedAt = await archived();
    expect(archivedAt.length).toBe(archivedBefore.length + 1);
    expect(archivedAt.filter((n) => n.startsWith(file)).length).toBe(archivedBefore.filter((n) => n.startsWith(file)).length + 1);

    // not-after: expired from t on, in "hide expired", "hide valid", pending acknowledgements, status and archive.
    const [beforeEnd, atEnd, afterEnd] = around(notAfter);
    expect([beforeEnd, atEnd, afterEnd].map((at) => certificateStatus(row, at).expired)).toEqual([false, true, true]);
    expect([beforeEnd, atEnd, afterEnd].map((at) => certificateStatus(row, at).valid)).toEqual([true, false, false]);
    for (const [at, expired] of [[beforeEnd, false], [atEnd, true], [afterEnd, true]] as const) {
      expect(await listed(certificates(), cn, 'hideExpired=true', at), `hideExpired at ${at.toISOString()}`).toBe(!expired);
      expect(await listed(certificates(), cn, 'hideValid=true', at), `hideValid at ${at.toISOString()}`).toBe(expired);
      const acknowledgements = (await pending('acknowledge', at)).certificates.map((c) => c.distinguished_name);
      expect(acknowledgements.includes(dn), `pending acknowledgement at ${at.toISOString()}`).toBe(expired);
    }
    t.clock.set(beforeEnd);
    const lastIn = await archived();
    t.clock.set(atEnd);
    expect((await archived()).length).toBe(lastIn.length - 1);
  });

  it('turns a license valid at valid-from, opens renewal 7 days before and expires it at valid-until', async () => {
    t.clock.set('2026-03-15T10:00:00Z');
    customer = await make.organization({ parent: w.partner });
    const from = Date.parse('2026-03-19T23:00:00.000Z'); // 20 March, Berlin midnight
    const name = `Edge license ${dialect}`;
    const request = await t.call(SUPERVISOR, { method: 'POST', url: licenses(), payload: { license_name: name, date_valid_from: new Date(from).toISOString(), days_valid: 30 } });
    expect(request.statusCode).toBe(201);
    const requested = request.json();
    const approved = await t.call(SUPERVISOR, { method: 'POST', url: `/api/licenses/${requested.license_id}/approve`, payload: { version: requested.version } });
    expect(approved.statusCode).toBe(200);
    const license = approved.json();
    const until = Date.parse(license.date_valid_until);
    // 30 days of 24 h: the window crosses the spring DST change (29 March) and still ends at an instant 30 × 24 h on.
    expect(until - from).toBe(30 * DAY);
    const get = async (at: Date) => {
      t.clock.set(at);
      return (await t.call(SUPERVISOR, { method: 'GET', url: `/api/licenses/${license.license_id}` })).json();
    };

    const [beforeStart, atStart] = around(from);
    expect(licenseStatus(await get(beforeStart), beforeStart).valid).toBe(false);
    expect(licenseStatus(await get(atStart), atStart).valid).toBe(true);
    expect(await listed(licenses(), name, 'hideValid=true', beforeStart)).toBe(true);
    expect(await listed(licenses(), name, 'hideValid=true', atStart)).toBe(false);

    const [beforeWindow, atWindow] = around(until - 7 * DAY);
    expect(licenseStatus(await get(beforeWindow), beforeWindow).can_renew).toBe(false);
    expect(licenseStatus(await get(atWindow), atWindow).can_renew).toBe(true);

    for (const [at, expired] of around(until).map((at, i) => [at, i > 0] as const)) {
      const seen = await get(at);
      expect(seen.days_left < 0, `days_left ${seen.days_left} at ${at.toISOString()}`).toBe(expired);
      expect(licenseStatus(seen, at).expired).toBe(expired);
      expect(await listed(licenses(), name, 'hideExpired=true', at)).toBe(!expired);
      const acknowledgements = (await pending('acknowledge', at)).licenses.map((l) => l.license_name);
      expect(acknowledgements.includes(name), `pending acknowledgement at ${at.toISOString()}`).toBe(expired);
    }
  });
});
