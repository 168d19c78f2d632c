/**
 * `npm run bench`: the speed and memory targets, measured on generated data (not in the tests).
 * Builds a SQLite database (or PostgreSQL with BENCH_DATABASE_URL) with many organizations,
 * certificates and journal records, then times the pages people open most through the real app.
 *
 *   BENCH_CERTIFICATES (default 100000), BENCH_AUDIT (default 1000000), BENCH_ORGS (default 200)
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { buildApp } from '../server/app';
import { seedDemoData } from './seed-data';
import { signToken, TEST_CONFIG } from '../test/support/test-app';

const CERTIFICATES = Number(process.env.BENCH_CERTIFICATES ?? 100_000);
const AUDIT = Number(process.env.BENCH_AUDIT ?? 1_000_000);
const ORGS = Number(process.env.BENCH_ORGS ?? 200);

/** Targets: the 95th percentile of each page, in milliseconds, and the heap after the run. */
// A journal search is a "contains" over reason and message, which no b-tree index serves: it reads the
// organization's records, so it has its own, looser target (docs/decisions.md "Organizations and members").
const TARGETS = { listPageP95: 150, journalPageP95: 100, journalSearchP95: 500, exportP95: 3000, heapMiB: 512 };

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>, size = 500) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

async function generate(db: Db, now: Date) {
  await seedDemoData(db, now);
  const operator = (await db.selectFrom('organizations').select('organization_id').where('organization_role', '=', 'OPERATOR').executeTakeFirstOrThrow()).organization_id;
  const orgs = Array.from({ length: ORGS }, (_, i) => ({
    organization_id: randomUUID(), organization_name: `Bench Customer ${i}`, organization_role: 'CUSTOMER' as const,
    parent_organization_id: operator, website: null, logo_url: null, address: null, ban_note: null, date_organization_banned: null,
    date_created: now.toISOString(),
  }));
  await insertInChunks(orgs, (chunk) => db.insertInto('organizations').values(chunk).execute(), 200);
  const day = 86_400_000;
  const certificates = Array.from({ length: CERTIFICATES }, (_, i) => {
    const dn = `CN=device-${i}.bench.example,O=Bench Customer ${i % ORGS},C=DE`;
    const from = now.getTime() - (i % 700) * day;
    return {
      distinguished_name: dn, dn_search: dn.toLowerCase(), organization_id: orgs[i % ORGS].organization_id, description: `device ${i}`,
      owner_member_id: null, approver_member_id: null, date_not_before: new Date(from).toISOString(), date_not_after: new Date(from + 365 * day).toISOString(),
      date_approved: i % 3 ? new Date(from).toISOString() : null, date_revoked: i % 17 === 0 ? now.toISOString() : null, date_expiry_acknowledged: null,
      date_created: new Date(from).toISOString(), certificate_pem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      serial_number: i.toString(16), signature: 'AB', signature_algorithm: 'ecdsa-with-SHA256', version: 3,
    };
  });
  await insertInChunks(certificates, (chunk) => db.insertInto('certificates').values(chunk).execute(), 200);
  const target = orgs[0].organization_id;
  for (let done = 0; done < AUDIT; done += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, AUDIT - done) }, (_, i) => ({
      organization_id: (done + i) % 2 ? target : orgs[(done + i) % ORGS].organization_id,
      reason: (done + i) % 5 ? 'CERTIFICATE_UPLOADED' : 'LICENSE_REQUESTED', message: `bench record ${done + i}`,
      member_email: 'bench@operator.example', date_created: new Date(now.getTime() - (AUDIT - done - i) * 1000).toISOString(),
    }));
    await insertInChunks(rows, (chunk) => db.insertInto('audit_records').values(chunk).execute(), 1000);
  }
  return { target };
}

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const db = openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL, sqliteFile: path.join(dir, 'bench.db') });
  await migrateToLatest(db);
  const now = new Date();
  console.log(`Generating ${ORGS} organizations, ${CERTIFICATES} certificates, ${AUDIT} journal records…`);
  const started = Date.now();
  const { target } = await generate(db, now);
  console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const app = await buildApp({ config: { ...TEST_CONFIG, logLevel: 'silent' }, db, logger: false });
  await app.ready();
  const bearer = async (email: string) => ({ authorization: `Bearer ${await signToken(db, { email, email_verified: true }, { expiresIn: '1h' })}` });
  const supervisor = await bearer('supervisor@operator.example');
  const devops = await bearer('devops@operator.example');

  const measure = async (label: string, urls: string[], runs: number, targetMs: number, headers = supervisor) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const url = urls[i % urls.length];
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers });
      times.push(performance.now() - t0);
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
    }
    const p95 = percentile(times, 95);
    const ok = p95 <= targetMs;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${label}: p95 ${p95.toFixed(1)} ms (median ${percentile(times, 50).toFixed(1)} ms, target ${targetMs} ms)`);
    return ok;
  };

  const results = [
    await measure('certificate list of one organization', [`/api/organizations/${target}/certificates`, `/api/organizations/${target}/certificates?name=device-1&hideExpired=true`], 40, TARGETS.listPageP95),
    await measure('certificate list across organizations', ['/api/certificates?limit=100', '/api/certificates?name=device-99&hideRequests=true', '/api/certificates?offset=5000'], 40, TARGETS.listPageP95),
    await measure('journal first page', [`/api/organizations/${target}/auditrecords`], 20, TARGETS.journalPageP95),
    await measure('journal deep page', [`/api/organizations/${target}/auditrecords?offset=200000`], 10, TARGETS.journalPageP95),
    await measure('journal search', [`/api/organizations/${target}/auditrecords?filter=LICENSE`], 10, TARGETS.journalSearchP95),
    await measure('pending approvals', ['/api/approve'], 10, TARGETS.listPageP95 * 2),
    await measure('gateway certificate archive', ['/api/piston/certs'], 3, TARGETS.exportP95, devops),
  ];
  const heap = process.memoryUsage().heapUsed / 1024 / 1024;
  const heapOk = heap <= TARGETS.heapMiB;
  console.log(`${heapOk ? 'PASS' : 'FAIL'} heap after the run: ${heap.toFixed(0)} MiB (target ${TARGETS.heapMiB} MiB)`);
  await app.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
  const passed = results.filter(Boolean).length + (heapOk ? 1 : 0);
  const failed = results.length + 1 - passed;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
