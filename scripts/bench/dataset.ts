/**
 * The benchmark's data set, the same on both engines: the demo seed (its members; not its sign-in accounts),
 * then organizations (partners under the operator, customers under partners), members, certificates
 * with real PEMs, licenses and the journal, with one large organization holding a fifth of the
 * certificates and licenses and half of the journal. Rows go to a `Sink` in batches; the
 * random choices come from a seeded generator, so a size always gives the same data.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../server/db/database';
import { loadProviderKeys } from '../../server/auth/idp/keys';
import { parseCertificatePem } from '../../server/modules/certificates/x509';
import { startOfUtcDay } from '../../common/status';
import { licenseValidUntil } from '../../common/zones';
import { LICENSE_SCOPES } from '../../common/enums';
import { seedDemoData } from '../../server/demo/seed';
import { makeCertificate } from '../../server/demo/make-certificate';
import type { Sizes } from './config';

type ColumnType = 'text' | 'int';
export interface Sink {
  /** Inserts rows (values in `columns` order) into `table`. */
  insert(table: string, columns: readonly (readonly [string, ColumnType])[], rows: unknown[][]): Promise<void>;
}

/** What the benchmark needs to know of the data, kept in the database (setting `bench.facts`). */
export interface DatasetFacts {
  generatedAt: string;
  sizes: Sizes;
  largeOrganizationId: string;
  largeOrganizationName: string;
  /** Journal records of the large organization. */
  largeJournal: number;
  /** A journal text filter that matches a few dozen records of the large organization. */
  journalFilter: string;
  /** A filter of the certificate list: part of a DN, as a person would type it. */
  certificateFilter: string;
  averagePemBytes: number;
}

const DAY = 86_400_000;
const BATCH = 2_000;

/** mulberry32: small, fast, seeded. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] };
}

/** A UUID-shaped id from a name, so ids are the same in every generation. */
function idOf(name: string): string {
  const h = createHash('sha1').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const col = (...names: string[]) => names.map((n) => [n, 'text'] as const);

class Batcher {
  private rows: unknown[][] = [];
  /** `parent`: the batcher of the rows these refer to, flushed first. */
  constructor(private sink: Sink, private table: string, private columns: readonly (readonly [string, ColumnType])[], private parent?: Batcher) {}
  async add(row: unknown[]) {
    this.rows.push(row);
    if (this.rows.length >= BATCH) await this.flush();
  }
  async flush() {
    await this.parent?.flush();
    if (this.rows.length) await this.sink.insert(this.table, this.columns, this.rows);
    this.rows = [];
  }
}

interface Org {
  id: string;
  name: string;
  slug: string;
  members: { id: string; email: string }[];
  certificates: number;
  licenses: number;
}

const GIVEN = ['Anna', 'Ben', 'Clara', 'David', 'Eva', 'Felix', 'Greta', 'Hugo', 'Ida', 'Jonas', 'Kim', 'Lena', 'Mats', 'Nina', 'Olaf', 'Paula'];
const FAMILY = ['Adler', 'Berg', 'Conrad', 'Dietz', 'Engel', 'Fischer', 'Graf', 'Hahn', 'Ivers', 'Jung', 'Keller', 'Lang', 'Maier', 'Neumann'];

export async function generateDataset(db: Db, sink: Sink, sizes: Sizes, largeShare: number, pemPool: number, log: (line: string) => void): Promise<DatasetFacts> {
  const now = new Date();
  const iso = (ms: number) => new Date(ms).toISOString();
  const rnd = random(20261123);

  // The demo organizations and accounts, and the built-in provider's signing key.
  await seedDemoData(db, now);
  // The demo's first time scan looks a week back (demo/seed.ts); a benchmarked portal starts scanning at its
  // own start instead, as one running for a while does every 30 s, not with a catch-up at every copy's start.
  await db.deleteFrom('scan_state').execute();
  // The bench signs its tokens with the provider's key: no password sign-in. Without the demo's published
  // password in it, the data set is one a production portal starts on (server/demo/published.ts).
  await db.deleteFrom('accounts').execute();
  await loadProviderKeys(db);
  const operatorId = (await db.selectFrom('organizations').select('organization_id').where('organization_role', '=', 'OPERATOR').executeTakeFirstOrThrow()).organization_id;
  const approverId = (await db.selectFrom('members').select('member_id').where('member_email', '=', 'approver@operator.example').executeTakeFirstOrThrow()).member_id;

  // Organizations: one partner per hundred, customers under the partners; the first customer is the large one.
  const partnerCount = Math.max(1, Math.round(sizes.organizations / 100));
  const orgs: Org[] = [];
  const organizations = new Batcher(sink, 'organizations', col('organization_id', 'organization_name', 'organization_role', 'parent_organization_id', 'website', 'logo_url', 'address', 'ban_note', 'date_organization_banned', 'date_created'));
  const domains = new Batcher(sink, 'organization_domains', col('organization_id', 'domain'), organizations);
  for (let i = 0; i < sizes.organizations; i++) {
    const partner = i < partnerCount;
    const large = i === partnerCount;
    const name = partner ? `Bench Partner ${pad(i + 1, 4)}` : large ? 'Bench Large Customer' : `Bench Customer ${pad(i - partnerCount, 5)}`;
    const slug = partner ? `partner-${pad(i + 1, 4)}.bench.example` : large ? 'large.bench.example' : `customer-${pad(i - partnerCount, 5)}.bench.example`;
    const org: Org = { id: idOf(`org ${i}`), name, slug, members: [], certificates: 0, licenses: 0 };
    orgs.push(org);
    const parent = partner ? operatorId : orgs[(i - partnerCount) % partnerCount].id;
    const banned = !partner && !large && i % 97 === 0;
    await organizations.add([
      org.id, name, partner ? 'PARTNER' : 'CUSTOMER', parent, `https://${slug}`, null, `${1 + (i % 200)} Bench Street, ${10000 + i} Bench City`,
      banned ? 'Contract ended.' : null, banned ? iso(now.getTime() - 30 * DAY) : null, iso(now.getTime() - (900 - (i % 800)) * DAY),
    ]);
    if (!partner) await domains.add([org.id, slug]);
  }
  await organizations.flush();
  await domains.flush();
  const largeOrg = orgs[partnerCount];
  const others = orgs.filter((o) => o !== largeOrg);
  log(`  ${orgs.length} organizations (${partnerCount} partners)`);

  // Members: a tenth in the large organization, the rest spread over the others; one role each.
  const members = new Batcher(sink, 'members', col('member_id', 'organization_id', 'member_email', 'name', 'given_name', 'family_name', 'job_role', 'mobile_phone', 'office_phone', 'address', 'ban_note', 'date_member_banned', 'date_created'));
  const roles = new Batcher(sink, 'role_assignments', col('member_id', 'organization_id', 'role', 'scope'), members);
  const largeMembers = Math.round(sizes.members * 0.1);
  for (let i = 0; i < sizes.members; i++) {
    const org = i < largeMembers ? largeOrg : others[i % others.length];
    const given = rnd.pick(GIVEN);
    const family = rnd.pick(FAMILY);
    const member = { id: idOf(`member ${i}`), email: `${given.toLowerCase()}.${family.toLowerCase()}.${pad(i, 6)}@${org.slug}` };
    org.members.push(member);
    const banned = i % 113 === 57;
    await members.add([
      member.id, org.id, member.email, `${given} ${family}`, given, family, i % 3 ? 'Network engineer' : null, i % 4 ? `+49 170 ${pad(i, 7)}` : null, null, null,
      banned ? 'Left the company.' : null, banned ? iso(now.getTime() - 10 * DAY) : null, iso(now.getTime() - (700 - (i % 600)) * DAY),
    ]);
    const partner = orgs.indexOf(org) < partnerCount;
    const role = partner ? 'ADMINISTRATOR' : org.members.length === 1 ? 'ADMINISTRATOR' : i % 5 === 0 ? 'ISSUER' : i % 11 === 0 ? 'APPROVER' : 'MEMBER';
    await roles.add([member.id, org.id, role, partner ? 'COOPERATION' : 'ORGANIZATION']);
  }
  await members.flush();
  await roles.flush();
  log(`  ${sizes.members} members (${largeMembers} in the large organization)`);

  // A pool of real certificates; every row reuses one's PEM, signature and algorithm with its own DN and serial.
  const pool: ReturnType<typeof parseCertificatePem>[] = [];
  for (let i = 0; i < pemPool; i++) {
    const { pem } = await makeCertificate({ subject: `C=DE, O=Bench Pool, OU=Gateways, CN=pool-${pad(i, 4)}.bench.example`, notBefore: new Date(now.getTime() - 30 * DAY), notAfter: new Date(now.getTime() + 335 * DAY) });
    pool.push(parseCertificatePem(pem));
  }
  const averagePemBytes = Math.round(pool.reduce((s, p) => s + p.certificate_pem.length, 0) / pool.length);

  const dnOf = (org: Org, k: number) => `CN=device-${pad(k, 6)}.${org.slug},OU=Gateways,O=${org.name},C=DE`;
  const certificates = new Batcher(sink, 'certificates', [
    ...col('distinguished_name', 'dn_search', 'organization_id', 'description', 'owner_member_id', 'approver_member_id', 'date_not_before', 'date_not_after', 'date_approved',
      'date_revoked', 'date_expiry_acknowledged', 'date_created', 'certificate_pem', 'serial_number', 'signature', 'signature_algorithm'),
    ['version', 'int'],
  ]);
  const largeCertificates = Math.round(sizes.certificates * largeShare);
  const t = now.getTime();
  for (let i = 0; i < sizes.certificates; i++) {
    const org = i < largeCertificates ? largeOrg : others[i % others.length];
    const k = org.certificates++;
    const dn = dnOf(org, k);
    const p = pool[i % pool.length];
    // States: 3 % waiting for approval, 4 % revoked, 10 % expired (half acknowledged), 3 % not yet valid, the rest valid.
    const state = rnd.next();
    const from = state >= 0.17 && state < 0.2 ? t + (1 + rnd.int(30)) * DAY : state >= 0.07 && state < 0.17 ? t - (400 + rnd.int(400)) * DAY : t - rnd.int(360) * DAY;
    const to = state >= 0.07 && state < 0.17 ? from + (30 + rnd.int(360)) * DAY : from + 365 * DAY;
    const pending = state < 0.03;
    const revoked = state >= 0.03 && state < 0.07;
    const acknowledged = state >= 0.12 && state < 0.17;
    const created = Math.min(from, t) - DAY;
    const owner = org.members.length ? org.members[k % org.members.length].id : null;
    await certificates.add([
      dn, dn.toLowerCase(), org.id, `Gateway ${k} of ${org.name}`, owner, pending ? null : approverId, iso(from), iso(to),
      pending ? null : iso(created + DAY / 2), revoked ? iso(Math.min(t, to) - DAY) : null, acknowledged ? iso(to + DAY) : null, iso(created),
      p.certificate_pem, `7${pad(i, 8)}${p.serial_number.slice(9)}`, p.signature, p.signature_algorithm, 3,
    ]);
  }
  await certificates.flush();
  log(`  ${sizes.certificates} certificates (${largeCertificates} in the large organization, PEM ${averagePemBytes} bytes on average)`);

  // Licenses: a fifth in the large organization. 3 % waiting, 3 % rejected, 12 % expired (half acknowledged).
  const licenses = new Batcher(sink, 'licenses', [
    ...col('license_id', 'license_name', 'name_search', 'license_scope', 'organization_id', 'date_valid_from'), ['days_valid', 'int'],
    ...col('date_valid_until', 'note', 'date_approved', 'date_rejected', 'date_expiry_acknowledged', 'approver_member_id', 'extended_by_license_id'),
    ['version', 'int'], ['date_created', 'text'],
  ]);
  const largeLicenses = Math.round(sizes.licenses * largeShare);
  const today = startOfUtcDay(now).getTime();
  for (let i = 0; i < sizes.licenses; i++) {
    const org = i < largeLicenses ? largeOrg : others[i % others.length];
    const k = org.licenses++;
    const scope = LICENSE_SCOPES[i % LICENSE_SCOPES.length];
    const name = `${org.name} ${scope.charAt(0)}${scope.slice(1).toLowerCase()} ${pad(k, 5)}`;
    const days = [30, 90, 180, 365][i % 4];
    const state = rnd.next();
    const fromMs = state >= 0.06 && state < 0.18 ? today - (days + 1 + rnd.int(300)) * DAY : today - rnd.int(days) * DAY;
    const from = iso(fromMs);
    const pending = state < 0.03;
    const rejected = state >= 0.03 && state < 0.06;
    const acknowledged = state >= 0.12 && state < 0.18;
    const decided = !pending && !rejected;
    await licenses.add([
      idOf(`license ${i}`), name, name.toLowerCase(), scope, org.id, from, days, licenseValidUntil(from, days), i % 3 ? null : 'Ordered through the partner.',
      decided ? iso(fromMs - DAY) : null, rejected ? iso(fromMs - DAY) : null, acknowledged ? iso(fromMs + (days + 1) * DAY) : null,
      decided ? approverId : null, null, 1 + (decided || rejected ? 1 : 0) + (acknowledged ? 1 : 0), iso(fromMs - 2 * DAY),
    ]);
  }
  await licenses.flush();
  log(`  ${sizes.licenses} licenses (${largeLicenses} in the large organization)`);

  // The journal: append-only, oldest first over two years, every other record the large organization's.
  const journal = new Batcher(sink, 'audit_records', col('organization_id', 'reason', 'message', 'member_email', 'date_created'));
  const start = t - 730 * DAY;
  const step = (730 * DAY) / sizes.journal;
  const filterDevice = Math.min(4242, Math.max(0, largeOrg.certificates - 1));
  let largeJournal = 0;
  for (let i = 0; i < sizes.journal; i++) {
    const large = i % 2 === 0;
    if (large) largeJournal++;
    const org = large ? largeOrg : others[(i >> 1) % others.length];
    const email = org.members.length ? org.members[rnd.int(org.members.length)].email : 'admin@operator.example';
    const dn = dnOf(org, rnd.int(Math.max(1, org.certificates)));
    const license = `${org.name} Production ${pad(rnd.int(Math.max(1, org.licenses)), 5)}`;
    const r = rnd.next();
    const [reason, message] =
      r < 0.3 ? ['CERTIFICATE_UPLOADED', `Uploaded certificate ${dn}.`]
      : r < 0.55 ? ['CERTIFICATE_APPROVED', `Approved certificate ${dn}.`]
      : r < 0.58 ? ['CERTIFICATE_REVOKED', `Revoked certificate ${dn}.`]
      : r < 0.6 ? ['CERTIFICATE_EXPIRY_ACKNOWLEDGED', `Acknowledged the expiry of certificate ${dn}.`]
      : r < 0.75 ? ['LICENSE_REQUESTED', `Requested license ${license} (PRODUCTION, 365 days from ${iso(start + i * step).slice(0, 10)}).`]
      : r < 0.85 ? ['LICENSE_APPROVED', `Approved license ${license}.`]
      : r < 0.93 ? ['MEMBER_SAVED', `Saved member ${email} (name, mobile phone).`]
      : ['ROLE_ASSIGNED', `Assigned ISSUER (ORGANIZATION) to ${email}.`];
    await journal.add([org.id, reason, message, email, iso(start + i * step)]);
    if (i % 200_000 === 199_999) log(`  … ${i + 1} journal records`);
  }
  await journal.flush();
  log(`  ${sizes.journal} journal records (${largeJournal} in the large organization)`);

  return {
    generatedAt: now.toISOString(),
    sizes,
    largeOrganizationId: largeOrg.id,
    largeOrganizationName: largeOrg.name,
    largeJournal,
    journalFilter: `device-${pad(filterDevice, 6)}`,
    // The first four digits of a device number: a hundred certificates of the large organization.
    certificateFilter: `device-${pad(Math.floor(largeOrg.certificates * 0.42), 6).slice(0, 4)}`,
    averagePemBytes,
  };
}
