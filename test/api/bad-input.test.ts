/**
 * Bad input by property (issue 9): fast-check sends malformed bodies, queries, path ids and
 * content types to every write route of the OpenAPI document and to every read route that takes
 * parameters, as a caller who IS allowed (so validation, not authorization, answers). Properties:
 * never a 5xx; the answer is a 4xx JSON error body, `message` and `severity` (the `field` it names
 * is the one that was spoiled); and the database and the journal are exactly as before.
 *
 * Each request starts from one that would succeed (checked at the end of each endpoint's test)
 * and spoils one thing of it, so a refusal can only come from the spoiled part.
 *
 * A quick run in `npm test` (50 requests per write route, 25 per read route); `npm run fuzz` is the
 * long run (10,000 per route). FUZZ_RUNS sets the number per route, FUZZ_SEED replays a failure.
 */
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeJwt } from 'jose';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { testDialects } from '../support/databases';
import { useTestApp, type TestApp } from '../support/test-app';
import { factories, type Cooperation } from '../support/factories';
import { makeCertificate } from '../../scripts/make-certificate';
import { forbiddenKey } from '../../server/http/json-body';

const dialects = await testDialects();
const LONG_RUN = process.env.npm_lifecycle_event === 'fuzz';
const RUNS = Number(process.env.FUZZ_RUNS ?? (LONG_RUN ? 10_000 : 50));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** Per endpoint: generous, since a long run is long on purpose. */
const TIMEOUT = 60_000 + RUNS * 200;
const DAY = 86_400_000;
const BODY_LIMIT = 256 * 1024;


// ---------------------------------------------------------------------------------------------
// JSON text the way a hostile client writes it: keys such as __proto__ as own keys, and number
// literals JSON.stringify cannot make (1e400).

class Raw {
  constructor(readonly text: string) {}
}
class Obj {
  constructor(readonly entries: Array<[string, unknown]>) {}
}

function json(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Obj) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${json(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(json).join(',')}]`;
  if (value !== null && typeof value === 'object') return json(new Obj(Object.entries(value)));
  return JSON.stringify(value) ?? 'null';
}

/** Percent-encoding of any string; a lone surrogate becomes its (invalid) 3-byte UTF-8 form. */
function encode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Values that no free-text field may take: control characters other than tab and line feed,
// and unpaired surrogates (docs/decisions.md "Platform").

const controlChar = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).filter((c) => c !== 0x09 && c !== 0x0a).map((c) => String.fromCharCode(c)),
  fc.constant('\u0000'),
  fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCharCode(c)),
);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/**
 * `base` with a refused character put somewhere in it. Not a lone surrogate in a URL: it has no
 * UTF-8 form, so its bytes do not decode and the query parser keeps the text as it came.
 */
const withRefusedChar = (base: string, surrogates = true) =>
  // Often at either end and one that trim() removes (CR, VT, FF): a field that trims spaces must refuse it, not drop it.
  fc.oneof(
    fc.tuple(fc.constantFrom(0, base.length), fc.constantFrom('\r', '\u000b', '\u000c')),
    fc.tuple(fc.nat({ max: base.length }), surrogates ? fc.oneof(controlChar, loneSurrogate) : controlChar),
  ).map(([at, char]) => base.slice(0, at) + char + base.slice(at));

/** Any text at all (unicode, astral, surrogates, controls), for wrong-type and garbage values. */
const anyText = fc.string({ unit: fc.oneof(fc.constantFrom('a', ' ', '\u0000', '\u202e', '😀', '\ud800', '%', '"', '\\', '/'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 40 });

const hugeText = (min: number) => fc.integer({ min, max: Math.max(min, 200_000) }).chain((n) => fc.constantFrom('x', 'é', '😀').map((c) => c.repeat(n)));

/** Any JSON value of another kind than `kinds` (string, number, boolean, null, array, object). */
function otherKind(kinds: ReadonlySet<string>): fc.Arbitrary<unknown> {
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', anyText],
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(new Raw('1e400'), new Raw('-1e400')))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 })],
    ['object', fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), fc.constant(new Obj([['__proto__', { admin: true }]])))],
  ];
  return fc.oneof(...all.filter(([kind]) => !kinds.has(kind)).map(([, arbitrary]) => arbitrary));
}

/** A JSON value nested `depth` deep, as text (arrays and objects). */
const deeplyNested = fc.tuple(fc.integer({ min: 1000, max: 40_000 }), fc.boolean()).map(([depth, arrays]) =>
  arrays ? new Raw(`${'['.repeat(depth)}1${']'.repeat(depth)}`) : new Raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
);

// ---------------------------------------------------------------------------------------------
// Bad values derived from the OpenAPI schema of a field.

interface JsonSchema {
  type?: string;
  enum?: string[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  /** A field of the object as GET answers it, accepted in a body sent back and ignored (common/schemas/body.ts). */
  readOnly?: boolean;
  required?: string[];
}

function kindsOf(schema: JsonSchema): Set<string> {
  const kinds = new Set<string>();
  for (const s of schema.anyOf ?? [schema]) {
    if (s.type === 'integer') kinds.add('number');
    else if (s.type) kinds.add(s.type);
    if (s.nullable) kinds.add('null');
  }
  return kinds;
}

/** Text outside `values`: any text, and near misses (other case, a space). */
function notIn(values: readonly string[], nearMisses: string[]): fc.Arbitrary<string> {
  const misses = nearMisses.filter((s) => !values.includes(s));
  return fc.oneof(anyText.filter((s) => !values.includes(s)), ...(misses.length ? [fc.constantFrom(...misses)] : []));
}

/** Integers and other numbers a schema refuses. */
function badNumber(schema: JsonSchema): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [fc.constantFrom(new Raw('1e400'), new Raw('-1e400'))];
  if (schema.minimum !== undefined) options.push(fc.integer({ min: -1e9, max: schema.minimum - 1 }), fc.constant(-Number.MAX_VALUE));
  if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) options.push(fc.integer({ min: schema.maximum + 1, max: schema.maximum + 1e9 }), fc.constant(Number.MAX_VALUE));
  if (schema.maximum !== undefined && schema.maximum >= Number.MAX_SAFE_INTEGER) options.push(fc.constantFrom(new Raw('9007199254740993'), new Raw('1e300')));
  if (schema.type === 'integer') {
    const low = schema.minimum ?? 0;
    options.push(fc.integer({ min: 0, max: 1000 }).map((n) => low + n + 0.5), fc.constant(new Raw(`${low}.000001`)));
  }
  return fc.oneof(...options);
}

/** Values the schema refuses; `valid` is the value of a request that succeeds. */
function badValue(schema: JsonSchema, valid: unknown, freeText: boolean): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [otherKind(kindsOf(schema)), deeplyNested];
  const string = (schema.anyOf ?? [schema]).find((s) => s.type === 'string');
  if (string?.enum) {
    options.push(notIn(string.enum, [...string.enum.flatMap((e) => [e.toLowerCase(), ` ${e}`, `${e}\u0000`])]));
  } else if (string) {
    if (string.maxLength !== undefined) options.push(hugeText(string.maxLength + 1));
    if (string.minLength) options.push(fc.constant(''));
    if (freeText) options.push(withRefusedChar(typeof valid === 'string' && valid ? valid : 'text'));
  }
  if (schema.type === 'integer' || schema.type === 'number') options.push(badNumber(schema));
  if (schema.type === 'array') {
    if (schema.maxItems !== undefined) options.push(fc.constant(Array(schema.maxItems + 1).fill(Array.isArray(valid) ? valid[0] : 'x')));
    if (schema.minItems) options.push(fc.constant([]));
    if (schema.items) options.push(badValue(schema.items, Array.isArray(valid) ? valid[0] : undefined, freeText).map((v) => [v]));
  }
  return fc.oneof(...options);
}

/** Query values (always text) a parameter's schema refuses. */
function badQueryValue(schema: JsonSchema, valid: string | undefined, freeText: boolean): fc.Arbitrary<string> {
  const junk = fc.constantFrom('abc', '1a', 'one', '12px', '1,5', '--1', '1..2', 'NaN', 'null', 'true', '[]', '{}', '1\u0000', '\u00001');
  if (schema.enum) return notIn(schema.enum, schema.enum.flatMap((e) => [e.toLowerCase(), `${e} `]));
  if (schema.type === 'number') return junk;
  if (schema.type === 'integer') {
    const options: fc.Arbitrary<string>[] = [junk, fc.integer({ min: 0, max: 1000 }).map((n) => `${(schema.minimum ?? 0) + n}.5`)];
    if (schema.minimum !== undefined) options.push(fc.integer({ min: -1e9, max: schema.minimum - 1 }).map(String));
    if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) options.push(fc.integer({ min: schema.maximum + 1, max: schema.maximum + 1e9 }).map(String));
    if (schema.maximum !== undefined && schema.maximum >= Number.MAX_SAFE_INTEGER) options.push(fc.constantFrom('9007199254740993', '1e400'));
    return fc.oneof(...options);
  }
  const options: fc.Arbitrary<string>[] = [];
  if (schema.maxLength !== undefined) options.push(hugeText(schema.maxLength + 1));
  if (schema.minLength) options.push(fc.constant(''));
  if (freeText) options.push(withRefusedChar(valid || 'text', false));
  return fc.oneof(...options);
}

/** Path values that name nothing: controls, bad percent-encoding, surrogates, over-long, unicode. */
function badPathValue(valid: string, maxLength: number): fc.Arbitrary<string> {
  const decoded = decodeURIComponent(valid);
  return fc.oneof(
    fc.constantFrom('%00', '%zz', '%', '%c0%ae', '%ed%a0%80', '%ff', '%e2%82', 'a%00b', '%0a', '%7f', '%c2%85', '%2f', '%5c', '%25', '%u0000', 'x%'),
    fc.tuple(fc.nat({ max: valid.length }), fc.constantFrom('%00', '%zz', '%', '%ff', '%ed%b0%80')).map(([at, junk]) => valid.slice(0, at) + junk + valid.slice(at)),
    withRefusedChar(decoded).map(encode),
    anyText.filter((s) => s.length > 0).map(encode),
    hugeText(maxLength + 1).map(encode),
  ).filter((value) => !/^(\.|%2e){1,2}$/i.test(value));
}

// ---------------------------------------------------------------------------------------------
// Endpoints: the request that succeeds, and what is not free text.

interface ValidRequest {
  caller?: string;
  /** Path parameter values, already percent-encoded. */
  path: Record<string, string>;
  query?: Record<string, string>;
  /** A JSON body (object, or string for the description), or `text` for a text/plain one. */
  body?: unknown;
  text?: string;
  /** Body values the schema cannot know to be bad (dates, domains, addresses, PEM...). */
  badBody?: Record<string, fc.Arbitrary<unknown>>;
  badQuery?: Record<string, fc.Arbitrary<string>>;
  /** The answer the valid request gets at the end (2xx). */
  expect?: number;
}

interface Operation {
  parameters?: Array<{ in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** Text fields that are not free text: parsed, never stored as sent. */
const NOT_FREE_TEXT = new Set(['certificate', 'certificates']);

const invalidDates = fc.oneof(
  fc.constantFrom(
    '2026-02-30', '2026-02-29', '2025-13-01', '2026-00-10', '2026-04-31', '2026-06-31', '1999-12-31', '9001-01-01', '0000-01-01',
    '2026-03-05T25:00:00Z', '2026-03-05T10:61:00Z', '2026-03-05T10:00:00', '2026-03-05T10:00:00+25:00', '2026-3-5', '05.03.2026',
    '03/05/2026', '', ' ', 'now', 'today', '+002026-03-05', '2026-03-05Z', '2026-W10-4', '1741168800000',
    // A control character where trimming the spaces around a date would have dropped it (found by this fuzzer).
    '\r2026-04-01', '2026-04-01\u000b',
  ),
  fc.tuple(fc.integer({ min: 2000, max: 2100 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 29, max: 40 }))
    .filter(([y, m, d]) => new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d)
    .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${d}`),
);

function blockOf(label: string, body: string) {
  return `-----BEGIN ${label}-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END ${label}-----\n`;
}

/** PEM text that is no single readable certificate. */
function badCertificates(pem: string, existing: string): fc.Arbitrary<unknown> {
  const base64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return fc.oneof(
    fc.constantFrom('', '   ', 'garbage', '-----BEGIN CERTIFICATE-----', '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----', base64, existing, pem + pem,
      blockOf('PRIVATE KEY', base64), blockOf('PUBLIC KEY', base64), blockOf('CERTIFICATE', Buffer.from('not der').toString('base64')),
      blockOf('CERTIFICATE', Buffer.alloc(70 * 1024, 7).toString('base64'))),
    fc.integer({ min: 1, max: base64.length - 1 }).map((n) => blockOf('CERTIFICATE', base64.slice(0, n))),
    // Base64 with a character that is none (other bytes of valid base64 may still make a certificate: its signature is not the portal's to check).
    fc.tuple(fc.nat({ max: base64.length - 1 }), fc.constantFrom('!', '\u0000', '\u0001', '\u00e9', '-', '*')).map(([at, c]) => blockOf('CERTIFICATE', base64.slice(0, at) + c + base64.slice(at + 1))),
  );
}

const badLocations = fc.constantFrom(
  'relative/x', '', ' ', '/srv/../etc', '/srv/%2e%2e/etc', '/srv/%252e%252e/x', '/srv/..%2fetc', '/srv/..\\etc', '/srv/%c0%ae%c0%ae/x', '/srv/%00', '/srv/a%0ab', 'C:\\srv', '~/x',
);
const badPatterns = fc.constantFrom('', 'relative', '/a//b', '/a/../b', '/a/./b', '/a b', '/%2e%2e', '/a\\b', '//', '/a/..', '/é');
const badDomains = fc.oneof(
  fc.constantFrom('not a domain!', 'a..b.example', '-a.example', 'example', 'a_b.example', '*.example.com', 'http://a.example', 'a.example/x', '1.2.3.4', 'a.123'),
  fc.constantFrom(['ok.example', 'bad domain'], Array.from({ length: 101 }, (_, i) => `d${i}.example`), Array(201).fill('a.example')),
);
const badWebsites = fc.constantFrom('javascript:alert(1)', 'ftp://files.example', 'https://user:pw@a.example', 'localhost', 'https://', 'http://[::1', 'mailto:x@y.example', 'https://a b.example');
const badLogos = fc.constantFrom('http://insecure.example/logo.png', 'javascript:alert(1)', 'data:image/png;base64,AAAA', 'https://localhost/x.png', 'https://u:p@a.example/x.png', 'logo.png', '//a.example/x.png');

// ---------------------------------------------------------------------------------------------

interface Sent {
  what: string;
  options: InjectOptions & { method: string; url: string };
  /** The field a 400 should name, when one field was spoiled. */
  field?: string;
}

describe.each(dialects)('bad input on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /**
   * The operator's supervisor and DevOps, who send the requests, and a partner with a customer
   * (with a certificate) whose objects the requests name; what a request changes is made for it.
   */
  let w: Cooperation;
  let SUPERVISOR: string;
  let DEVOPS: string;
  beforeAll(async () => {
    w = await make.cooperation();
    [SUPERVISOR, DEVOPS] = [w.supervisor.email, w.devops.email];
    await make.certificate(w.customer, 'approved');
    await make.resource();
  });
  let serial = 0;
  const unique = (label: string) => `fuzz-${label}-${++serial}-${randomUUID().slice(0, 8)}`;

  // Tokens are signed once per caller and renewed before they expire (a long run takes hours).
  const tokens = new Map<string, { headers: Record<string, string>; at: number }>();
  async function headersOf(email: string) {
    const cached = tokens.get(email);
    if (cached && Date.now() - cached.at < 5 * 60_000) return cached.headers;
    const headers = await t.as(email);
    tokens.set(email, { headers, at: Date.now() });
    return headers;
  }
  // Each request comes from its own address, so per-address rate limits do not answer instead of validation.
  let address = 0;
  async function send(caller: string, options: InjectOptions) {
    address += 1;
    const remoteAddress = `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
    return t.app.inject({ ...options, remoteAddress, headers: { ...(await headersOf(caller)), ...(options.headers ?? {}) } });
  }
  async function ok(caller: string, options: InjectOptions): Promise<LightMyRequestResponse> {
    const res = await send(caller, options);
    expect(res.statusCode, `${options.method} ${options.url}: ${res.body}`).toBeLessThan(300);
    return res;
  }

  /** Everything a request could change: every row of the portal's tables, the journal, the secret. */
  async function fingerprint(t: TestApp): Promise<string> {
    const hash = createHash('sha256');
    const tables = ['organizations', 'organization_domains', 'members', 'role_assignments', 'certificates', 'licenses', 'resources', 'resource_grants', 'settings', 'accounts', 'api_tokens', 'invitations'] as const;
    // At once: PostgreSQL answers them on several connections.
    const [journal, ...contents] = await Promise.all([
      t.db.selectFrom('audit_records').select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.max('record_id').as('last')]).executeTakeFirstOrThrow(),
      ...tables.map((table) => t.db.selectFrom(table).selectAll().execute()),
    ]);
    tables.forEach((table, i) => hash.update(`${table}\n${contents[i].map((row) => JSON.stringify(row)).sort().join('\n')}\n`));
    hash.update(`journal ${journal.n} ${journal.last} secret ${t.app.masterSecret.provided}`);
    return hash.digest('hex');
  }

  // ---- fixtures: objects in the state where the valid request succeeds -----------------------

  const contoso = () => w.customer.id;
  const certificateAt = (dn: string) => ({ id: contoso(), dn: encodeURIComponent(dn) });

  async function newPem(validDays = 30) {
    const now = t.clock.now().getTime();
    const { pem } = await makeCertificate({ subject: `O=Contoso, CN=${unique('gw')}.contoso.example`, notBefore: new Date(now - DAY), notAfter: new Date(now + validDays * DAY) });
    return pem;
  }
  async function uploaded(): Promise<string> {
    const res = await ok(SUPERVISOR, { method: 'POST', url: `/api/organizations/${contoso()}/certificates`, payload: { description: 'fuzz', certificate: await newPem() } });
    return res.json().distinguished_name;
  }
  async function approved() {
    const dn = await uploaded();
    await ok(SUPERVISOR, { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}` });
    return dn;
  }
  async function revoked() {
    const dn = await approved();
    await ok(SUPERVISOR, { method: 'POST', url: `/api/organizations/${contoso()}/certificates/${encodeURIComponent(dn)}/revoke` });
    return dn;
  }
  async function existingPem() {
    return (await t.db.selectFrom('certificates').select('certificate_pem').where('organization_id', '=', contoso()).executeTakeFirstOrThrow()).certificate_pem;
  }

  /** A license of Contoso as GET returns it, requested (and approved) with these dates. */
  async function license(options: { approve: boolean; fromDays?: number; days?: number }) {
    const from = new Date(t.clock.now().getTime() + (options.fromDays ?? 0) * DAY).toISOString();
    const created = await ok(SUPERVISOR, {
      method: 'POST', url: `/api/organizations/${contoso()}/licenses`,
      payload: { license_name: unique('license'), date_valid_from: from, days_valid: options.days ?? 30 },
    });
    if (!options.approve) return created.json();
    return (await ok(SUPERVISOR, { method: 'POST', url: `/api/licenses/${created.json().license_id}/approve`, payload: { version: created.json().version } })).json();
  }

  /** A member of Contoso, inserted with one role; banned when asked. */
  async function member(options: { banned?: boolean } = {}) {
    const memberId = randomUUID();
    const now = t.clock.now().toISOString();
    await t.db.insertInto('members').values({
      member_id: memberId, organization_id: contoso(), member_email: `${unique('m')}@contoso.example`, name: unique('Member'), given_name: null, family_name: null,
      job_role: null, mobile_phone: null, office_phone: null, address: null, ban_note: options.banned ? 'banned' : null, date_member_banned: options.banned ? now : null, date_created: now,
    }).execute();
    await t.db.insertInto('role_assignments').values({ member_id: memberId, organization_id: contoso(), role: 'MEMBER', scope: 'ORGANIZATION' }).execute();
    return memberId;
  }
  /** A pending invitation of Contoso. */
  async function invitation() {
    const id = randomUUID();
    const now = t.clock.now().getTime();
    await t.db.insertInto('invitations').values({
      invitation_id: id, organization_id: contoso(), email: `${unique('invited')}@elsewhere.example`, role: 'MEMBER', scope: 'ORGANIZATION', invited_by: null,
      date_created: new Date(now).toISOString(), date_sent: new Date(now).toISOString(), date_expires: new Date(now + 7 * DAY).toISOString(),
      date_accepted: null, accepted_member_id: null, date_revoked: null, revoked_by: null,
    }).execute();
    return id;
  }
  async function organization(banned = false) {
    const organizationId = randomUUID();
    const now = t.clock.now().toISOString();
    await t.db.insertInto('organizations').values({
      organization_id: organizationId, organization_name: unique('Customer'), organization_role: 'CUSTOMER', parent_organization_id: w.operator.id,
      website: null, logo_url: null, address: null, ban_note: banned ? 'banned' : null, date_organization_banned: banned ? now : null, date_created: now,
    }).execute();
    return organizationId;
  }
  async function resource(access: 'RESTRICTED' | 'PUBLIC' = 'RESTRICTED') {
    const res = await ok(SUPERVISOR, {
      method: 'POST', url: '/api/resources',
      payload: { resource_name: unique('Resource'), resource_type: 'STATIC_CONTENT', resource_access: access, path_pattern: `/${unique('p')}/**`, location: `/srv/${unique('l')}` },
    });
    return res.json();
  }
  const resourceInput = (r: Record<string, unknown>) => ({ ...r, resource_name: unique('Renamed') });
  /** An ordinal another resource has. */
  const takenOrdinal = async (except = '') => (await t.db.selectFrom('resources').select('ordinal').where('resource_id', '!=', except).executeTakeFirstOrThrow()).ordinal;
  async function secretProvided() {
    if (!t.app.masterSecret.provided) await ok(DEVOPS, { method: 'POST', url: '/api/admin/mastersecret', payload: 'fuzz master secret, long enough', headers: { 'content-type': 'text/plain' } });
  }
  const maxMember = async () => w.member.id;
  const getJson = async (url: string) => (await ok(SUPERVISOR, { method: 'GET', url })).json();

  const webhookBody = () => ({ url: `https://hooks.example.com/${unique('hook')}`, events: ['certificate.approved'], description: 'fuzz' });
  const badWebhook = {
    url: fc.constantFrom('ftp://hooks.example.com/x', 'http://127.0.0.1/x', 'http://localhost/x', 'http://[::1]/x', 'not a url', 'http://10.0.0.1/'),
    events: fc.constantFrom([], ['nope'], ['certificate.approved', 'certificate.approved']),
  };
  const apiKeyBody = () => ({ name: unique('key'), roles: [{ role: 'ISSUER', scope: 'ORGANIZATION' }], date_expires: new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString() });
  /** Bad beyond the schema's types: expiries the server refuses against its clock, roles Contoso's members cannot hold. */
  const badApiKey = {
    date_expires: fc.constantFrom('2020-01-01T00:00:00Z', '2099-01-01T00:00:00Z', 'tomorrow'),
    roles: fc.constantFrom([], [{ role: 'SUPERVISOR', scope: 'ORGANIZATION' }], [{ role: 'ISSUER', scope: 'ORGANIZATION' }, { role: 'ISSUER', scope: 'MANAGED' }]),
  };
  /** An API key of Contoso. */
  const apiKey = async () => (await ok(SUPERVISOR, { method: 'POST', url: `/api/organizations/${contoso()}/api-keys`, payload: apiKeyBody() })).json().api_key_id as string;
  /** A webhook endpoint of Contoso with one delivered delivery. */
  async function webhook() {
    const created = (await ok(SUPERVISOR, { method: 'POST', url: `/api/organizations/${contoso()}/webhooks`, payload: webhookBody() })).json();
    const endpoint = created.endpoint.endpoint_id as string;
    const delivery = `msg_${randomUUID()}`;
    const now = t.clock.now().toISOString();
    await t.db.insertInto('webhook_deliveries').values({
      delivery_id: delivery, endpoint_id: endpoint, event_id: 1, event_type: 'certificate.approved', subject_key: 'certificate:fuzz', payload: '{}',
      status: 'delivered', next_attempt_at: now, date_created: now, date_finished: now,
    }).execute();
    return { endpoint, delivery };
  }

  /** A support access request to Contoso by a DevOps engineer of its own (one open request per person): its number. */
  async function supportRequest(state: 'REQUESTED' | 'APPROVED' = 'REQUESTED'): Promise<string> {
    const engineer = await make.member(w.operator, { role: 'DEVOPS', scope: 'ORGANIZATION' });
    const now = t.clock.now();
    const approved = state === 'APPROVED';
    const row = await t.db.insertInto('support_requests').values({
      organization_id: contoso(), member_id: engineer.id, requester_organization_id: w.operator.id, requester_name: engineer.name,
      requester_email: engineer.email, role: 'MEMBER', reason: 'fuzz', hours: 2, break_glass: 0, state, date_requested: now.toISOString(),
      date_decided: approved ? now.toISOString() : null, decided_by: approved ? w.partnerAdmin.email : null,
      date_until: approved ? new Date(now.getTime() + 2 * 3_600_000).toISOString() : null, date_ended: null, ended_by: null,
    }).returning('request_id').executeTakeFirstOrThrow();
    return String(row.request_id);
  }
  const badSupport = {
    hours: fc.constantFrom(0, 73, 1.5, -1),
    reason: fc.constantFrom('', ' ', '\n'),
    role: fc.constantFrom('APPROVER', 'SUPERVISOR', 'DEVOPS'),
  };

  const statusQuery = { name: 'contoso', hideExpired: 'true', hideRequests: '0', hideValid: '', offset: '0', limit: '50' };
  const { offset: _offset, limit: _limit, ...exportQuery } = statusQuery;

  /** `METHOD template` → the request that succeeds. Every write route must be here. */
  const ENDPOINTS: Record<string, () => Promise<ValidRequest>> = {
    // organizations
    'POST /api/organizations': async () => ({
      path: {},
      body: { organization_name: unique('Org'), organization_role: 'CUSTOMER', parent_organization: w.partner.id, website: 'www.fuzz.example', domains: [`${unique('d')}.example`], address: 'Fuzz street 1\nFuzz town' },
      badBody: { organization_name: fc.constantFrom(' ', '\n\t', w.customer.name), organization_role: fc.constant('OPERATOR'), domains: badDomains, website: badWebsites, logo_url: badLogos, parent_organization: fc.constantFrom(randomUUID(), w.customer.id, 'nope') },
      expect: 201,
    }),
    'PUT /api/organizations/{id}': async () => {
      const id = await organization();
      return {
        path: { id },
        body: { ...(await getJson(`/api/organizations/${id}`)), address: unique('Address') },
        badBody: { organization_name: fc.constantFrom(' ', w.partner.name), organization_role: fc.constantFrom('PARTNER', 'OPERATOR'), domains: badDomains, website: badWebsites, logo_url: badLogos, parent_organization: fc.constantFrom(randomUUID(), id, 'nope') },
      };
    },
    'POST /api/organizations/{id}/ban': async () => ({ path: { id: await organization() }, query: { note: 'Contract ended.' } }),
    'POST /api/organizations/{id}/unban': async () => ({ path: { id: await organization(true) } }),

    // certificates
    'POST /api/organizations/{id}/certificates': async () => {
      const pem = await newPem();
      return { path: { id: contoso() }, body: { description: 'A gateway', certificate: pem }, badBody: { certificate: badCertificates(pem, await existingPem()) }, expect: 201 };
    },
    // A bulk upload answers 200 with a refusal per bad block; only a text refused whole is bad input (nothing stored).
    'POST /api/organizations/{id}/certificates/bulk': async () => {
      const [one, two] = [await newPem(), await newPem()];
      const tooMany = Array(101).fill(one).join('\n');
      return {
        path: { id: contoso() }, body: { description: 'Two gateways', certificates: `${one}\n${two}` },
        badBody: { certificates: fc.constantFrom('', '   ', 'garbage', one.replace(/-----[^-]+-----/g, ''), tooMany, `${one}\n${'#'.repeat(6400 * 1024)}`) },
      };
    },
    'DELETE /api/organizations/{id}/certificates/{dn}': async () => ({ path: certificateAt(await revoked()), expect: 204 }),
    'POST /api/approve/{dn}': async () => ({ path: { dn: encodeURIComponent(await uploaded()) }, expect: 204 }),
    'POST /api/organizations/{id}/certificates/{dn}/revoke': async () => ({ path: certificateAt(await approved()), expect: 204 }),
    'POST /api/organizations/{id}/certificates/{dn}/acknowledge-expiry': async () => ({ path: certificateAt(await approved()), expect: 204 }),
    'PUT /api/organizations/{id}/certificates/{dn}/description': async () => ({
      path: certificateAt(await uploaded()),
      body: 'A new description',
      badBody: { '': fc.oneof(otherKind(new Set(['string'])), hugeText(1001), withRefusedChar('A new description'), fc.constant('fuzz')) },
    }),

    // licenses
    'POST /api/organizations/{id}/licenses': async () => ({
      path: { id: contoso() },
      body: { license_name: unique('License'), license_scope: 'LAB', date_valid_from: '2026-04-01', days_valid: 30, note: 'For the lab' },
      badBody: { license_name: fc.constantFrom(' ', '\n'), date_valid_from: invalidDates },
      expect: 201,
    }),
    'POST /api/licenses/{id}/approve': async () => {
      const l = await license({ approve: false });
      return { path: { id: l.license_id }, body: { ...l, note: 'approved' }, badBody: { date_valid_from: invalidDates, license_name: fc.constant(' '), version: fc.constant(l.version + 1) } };
    },
    'POST /api/licenses/{id}/reject': async () => {
      const l = await license({ approve: false });
      return { path: { id: l.license_id }, query: { version: String(l.version) }, badQuery: { version: fc.constantFrom('', ' ', String(l.version + 1), `0x${l.version}`) } };
    },
    'POST /api/licenses/{id}/renew': async () => {
      const l = await license({ approve: true, fromDays: -25, days: 28 });
      return {
        path: { id: l.license_id }, query: { version: String(l.version) }, expect: 201,
        badQuery: { version: fc.constantFrom('', ' ', String(l.version + 1)), today: fc.oneof(invalidDates, fc.constantFrom('2020-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z')) },
      };
    },
    'POST /api/licenses/{id}/acknowledge-expiry': async () => {
      const l = await license({ approve: true, fromDays: -40, days: 10 });
      return { path: { id: l.license_id }, query: { version: String(l.version) }, badQuery: { version: fc.constantFrom('', ' ', String(l.version + 1)) } };
    },

    // the master secret: a text body, DevOps only, to a process that does not hold it yet (t.restart)
    'POST /api/admin/mastersecret': async () => {
      await t.restart();
      return {
        caller: DEVOPS,
        path: {},
        text: 'fuzz master secret, long enough',
        badBody: { '': fc.oneof(fc.string({ maxLength: 15 }), fc.string({ maxLength: 15 }).map((s) => `  ${s}\n\n`), hugeText(1025), fc.constant('\u0000'.repeat(10))) },
      };
    },
    'POST /api/token': async () => {
      await secretProvided();
      return {
        path: {}, body: { upn: 'gateway@operator.example', groups: ['piston_export'], expires_in: 30 },
        badBody: {
          upn: fc.constantFrom(' ', 'a b', 'a"b', 'a\\b', 'a\tb', 'a\nb'), groups: fc.constantFrom('piston_export', ['other'], ['piston_export', 'piston_export'], [['piston_export']]),
          name: fc.constantFrom('', ' ', 'x'.repeat(101), 7),
        },
      };
    },
    // A token made for the call, by its jti (the list's token_id).
    'DELETE /api/tokens/{id}': async () => {
      await secretProvided();
      const made = await ok(SUPERVISOR, { method: 'POST', url: '/api/token', payload: { upn: 'gateway@operator.example', groups: ['piston_export'], name: unique('token') } });
      return { path: { id: String(decodeJwt(made.body).jti) } };
    },

    // members
    'PUT /api/organizations/{id}/members/{memberId}': async () => {
      const memberId = await member();
      const body = { ...(await getJson(`/api/organizations/${contoso()}/members/${memberId}`)), job_role: 'Tester', mobile_phone: '+49 30 1234-5 x12' };
      return {
        path: { id: contoso(), memberId }, body,
        badBody: { name: fc.constantFrom(' ', '\n'), member_email: fc.constantFrom('other@contoso.example', '', 'x'), mobile_phone: fc.constantFrom('abc', '+49 30 12 34 ext', '12#34', '++49'), office_phone: fc.constantFrom('call me', '1-800-FLOWERS') },
      };
    },
    'DELETE /api/organizations/{id}/members/{memberId}': async () => ({ path: { id: contoso(), memberId: await member() }, expect: 204 }),
    'POST /api/organizations/{id}/members/{memberId}/ban': async () => ({ path: { id: contoso(), memberId: await member() }, query: { note: 'Left the company.' } }),
    'POST /api/organizations/{id}/members/{memberId}/unban': async () => ({ path: { id: contoso(), memberId: await member({ banned: true }) } }),
    'POST /api/organizations/{id}/members/{memberId}/roles/assign': async () => ({
      path: { id: contoso(), memberId: await member() },
      query: { role: 'ISSUER', scope: 'ORGANIZATION', until: new Date(t.clock.now().getTime() + 30 * DAY).toISOString() },
    }),
    'POST /api/organizations/{id}/members/{memberId}/roles/unassign': async () => ({ path: { id: contoso(), memberId: await member() }, query: { role: 'MEMBER' } }),

    // invitations
    'GET /api/organizations/{id}/invitations': async () => ({ path: { id: contoso() }, query: { status: 'all', offset: '0', limit: '50' } }),
    'POST /api/organizations/{id}/invitations': async () => ({
      path: { id: contoso() }, expect: 201,
      body: { email: `${unique('invited')}@elsewhere.example`, role: 'ISSUER', scope: 'ORGANIZATION' },
      badBody: { email: fc.constantFrom('x', 'a@b', 'no at.example', 'two@@example.com', w.member.email, w.partnerAdmin.email), role: fc.constantFrom('APPROVER', 'DEVOPS') },
    }),
    'POST /api/organizations/{id}/invitations/{invitationId}/resend': async () => ({ path: { id: contoso(), invitationId: await invitation() } }),
    'DELETE /api/organizations/{id}/invitations/{invitationId}': async () => ({ path: { id: contoso(), invitationId: await invitation() }, expect: 204 }),

    // resources
    'POST /api/resources': async () => ({
      path: {}, expect: 201,
      body: { resource_name: unique('Resource'), resource_type: 'LINUX_PACKAGE', resource_access: 'RESTRICTED', path_pattern: `/${unique('p')}/**`, location: `/srv/${unique('l')}`, description: 'Packages\tfor the lab' },
      badBody: { location: badLocations, path_pattern: badPatterns, resource_name: fc.constant(' '), ordinal: fc.constant(await takenOrdinal()) },
    }),
    'PUT /api/resources/{id}': async () => {
      const r = await resource();
      return { path: { id: r.resource_id }, body: resourceInput(r), badBody: { location: badLocations, path_pattern: badPatterns, resource_name: fc.constant(' '), ordinal: fc.constant(await takenOrdinal(r.resource_id)) } };
    },
    'DELETE /api/resources/{id}': async () => ({ path: { id: (await resource()).resource_id }, expect: 204 }),
    'POST /api/resources/{id}/add': async () => ({
      path: { id: (await resource()).resource_id }, query: { organization: contoso() },
      badQuery: { organization: fc.constantFrom(randomUUID(), 'nope') },
    }),
    'POST /api/resources/{id}/remove': async () => {
      const r = await resource();
      await ok(SUPERVISOR, { method: 'POST', url: `/api/resources/${r.resource_id}/add?organization=${contoso()}` });
      return { path: { id: r.resource_id }, query: { organization: contoso() }, badQuery: { organization: fc.constantFrom(randomUUID(), w.partner.id) } };
    },

    // reads with parameters
    'GET /api/organizations': async () => ({ path: {}, query: { filter: 'con', offset: '0', limit: '10' } }),
    'GET /api/organizations/{id}': async () => ({ path: { id: contoso() } }),
    'GET /api/certificates': async () => ({ path: {}, query: statusQuery }),
    'GET /api/organizations/{id}/certificates': async () => ({ path: { id: contoso() }, query: statusQuery }),
    'GET /api/organizations/{id}/members/{memberId}/certificates': async () => ({ path: { id: contoso(), memberId: await maxMember() }, query: statusQuery }),
    'GET /api/organizations/{id}/certificates/{dn}': async () => ({ path: certificateAt((await t.db.selectFrom('certificates').select('distinguished_name').where('organization_id', '=', contoso()).executeTakeFirstOrThrow()).distinguished_name) }),
    'GET /api/licenses': async () => ({ path: {}, query: statusQuery }),
    'GET /api/organizations/{id}/licenses': async () => ({ path: { id: contoso() }, query: statusQuery }),
    'GET /api/licenses/{id}': async () => ({ path: { id: (await license({ approve: false })).license_id } }),
    'GET /api/licenses/{id}/license-key': async () => {
      await secretProvided();
      return { path: { id: (await license({ approve: true })).license_id } };
    },
    'GET /api/members': async () => ({ path: {}, query: { filter: 'contoso', offset: '0', limit: '10' } }),
    'GET /api/organizations/{id}/members': async () => ({ path: { id: contoso() }, query: { filter: 'max', offset: '1', limit: '1000' } }),
    'GET /api/organizations/{id}/members/{memberId}': async () => ({ path: { id: contoso(), memberId: await maxMember() } }),
    'GET /api/organizations/{id}/members/{memberId}/status': async () => ({
      path: { id: contoso(), memberId: await maxMember() }, query: { email: 'someone@contoso.example' },
      badQuery: { email: fc.constantFrom('no-at', 'a@b@c', 'a b@c.example', '@c.example', 'a@', '') },
    }),
    'GET /api/organizations/{id}/members/{memberId}/roles': async () => ({ path: { id: contoso(), memberId: await maxMember() } }),
    'GET /api/organizations/{id}/auditrecords': async () => ({ path: { id: contoso() }, query: { filter: 'cert', offset: '-5', limit: '5000' } }),
    'GET /api/resources': async () => ({ path: {}, query: { filter: 'pack' } }),
    'GET /api/approve': async () => ({ path: {}, query: { certificatesOffset: '0', licensesOffset: '1', limit: '10' } }),
    'GET /api/acknowledge': async () => ({ path: {}, query: { certificatesOffset: '2', licensesOffset: '0', limit: '1000' } }),
    'GET /api/approve/certificates.csv': async () => ({ path: {}, query: { sort: '-date_created' } }),
    'GET /api/approve/licenses.csv': async () => ({ path: {}, query: { sort: 'license_name' } }),
    'GET /api/acknowledge/certificates.csv': async () => ({ path: {}, query: { sort: 'date_not_after' } }),
    'GET /api/acknowledge/licenses.csv': async () => ({ path: {}, query: { sort: '-date_valid_until' } }),
    'GET /api/organizations/{id}/resources': async () => ({ path: { id: contoso() } }),
    'GET /api/resources/{id}': async () => ({ path: { id: (await resource('PUBLIC')).resource_id } }),

    // The access review (issue 33).
    'GET /api/organizations/{id}/access-review': async () => ({ path: { id: contoso() }, query: { kind: 'STANDING', offset: '0', limit: '10' } }),
    'GET /api/access-review': async () => ({ path: {}, query: { kind: 'TIME_BOXED', limit: '5' } }),

    // The lists' CSV exports (issue 12): the list's query without its page, and the list's orders.
    'GET /api/organizations.csv': async () => ({ path: {}, query: { filter: 'con', sort: '-organization_name' } }),
    'GET /api/certificates.csv': async () => ({ path: {}, query: { ...exportQuery, sort: 'date_not_after' } }),
    'GET /api/organizations/{id}/certificates.csv': async () => ({ path: { id: contoso() }, query: { ...exportQuery, sort: '-date_not_after' } }),
    'GET /api/organizations/{id}/members/{memberId}/certificates.csv': async () => ({ path: { id: contoso(), memberId: await maxMember() }, query: exportQuery }),
    'GET /api/licenses.csv': async () => ({ path: {}, query: { ...exportQuery, sort: 'date_valid_until' } }),
    'GET /api/organizations/{id}/licenses.csv': async () => ({ path: { id: contoso() }, query: exportQuery }),
    'GET /api/members.csv': async () => ({ path: {}, query: { filter: 'contoso', sort: 'member_email' } }),
    'GET /api/organizations/{id}/members.csv': async () => ({ path: { id: contoso() }, query: { filter: 'max' } }),
    'GET /api/organizations/{id}/auditrecords.csv': async () => ({ path: { id: contoso() }, query: { filter: 'cert' } }),
    'GET /api/organizations/{id}/access-review.csv': async () => ({ path: { id: contoso() }, query: { kind: 'TIME_BOXED' } }),
    'GET /api/access-review.csv': async () => ({ path: {}, query: { kind: 'STANDING' } }),
    'GET /api/resources.csv': async () => ({ path: {}, query: { filter: 'pack', sort: 'resource_name' } }),
    'GET /api/organizations/{id}/resources.csv': async () => ({ path: { id: contoso() }, query: { sort: 'ordinal' } }),

    // bulk actions: one item that the action applies to; the preview of one organization's list
    'POST /api/bulk/certificates/{action}': async () => ({ path: { action: 'approve' }, body: { items: [{ organization_id: contoso(), distinguished_name: await uploaded() }] } }),
    'POST /api/bulk/licenses/{action}': async () => {
      const l = await license({ approve: false });
      return { path: { action: 'reject' }, body: { items: [{ license_id: l.license_id, version: l.version }] } };
    },
    'GET /api/bulk/certificates/{action}/preview': async () => ({ path: { action: 'revoke' }, query: { ...exportQuery, organization_id: contoso(), sort: '-date_not_after' } }),
    'GET /api/bulk/licenses/{action}/preview': async () => ({ path: { action: 'acknowledge-expiry' }, query: { ...exportQuery, organization_id: contoso() } }),
    'GET /api/organizations/{id}/overview': async () => ({ path: { id: contoso() } }),

    // notifications and webhooks (issue 13)
    'GET /api/organizations/{id}/notifications': async () => ({ path: { id: contoso() } }),
    'PUT /api/organizations/{id}/notifications': async () => ({
      path: { id: contoso() },
      body: { events: ['certificate.expiring'], expiry_days: [30, 7], waiting_days: 3, recipient_roles: ['ISSUER'], extra_addresses: [`noc@${w.customer.domain}`], email: true },
      badBody: { expiry_days: fc.constantFrom([], [0], [7, 7], [400]), extra_addresses: fc.constantFrom(['not an address'], ['a@b.example', 'a@b.example'], ['victim@outside.example']), events: fc.constantFrom(['nope'], ['certificate.expiring', 'certificate.expiring']) },
    }),
    'GET /api/notices': async () => ({ path: {}, query: { limit: '10' } }),
    'POST /api/notices/read': async () => ({ path: {}, body: { notice_ids: [1, 2] } }),
    'GET /api/organizations/{id}/api-keys': async () => ({ path: { id: contoso() } }),
    'POST /api/organizations/{id}/api-keys': async () => ({ path: { id: contoso() }, body: apiKeyBody(), badBody: badApiKey, expect: 201 }),
    'DELETE /api/organizations/{id}/api-keys/{keyId}': async () => ({ path: { id: contoso(), keyId: await apiKey() }, expect: 204 }),
    // vendor support access (issue 33): asked by a supervisor (a fresh one each time: one open request per person), decided by the customer's partner's administrator
    'GET /api/organizations/{id}/support-access': async () => ({ path: { id: contoso() } }),
    'GET /api/organizations/{id}/support-access/active': async () => ({ path: { id: contoso() } }),
    'POST /api/organizations/{id}/support-access': async () => ({
      caller: (await make.member(w.operator, { role: 'SUPERVISOR', scope: 'COOPERATION' })).email,
      path: { id: contoso() }, body: { role: 'MEMBER', reason: 'Incident 42', hours: 2 }, badBody: badSupport, expect: 201,
    }),
    'PUT /api/organizations/{id}/support-access/settings': async () => ({
      caller: w.partnerAdmin.email, path: { id: contoso() }, body: { auto_approve: false, max_hours: 8 },
      badBody: { max_hours: fc.constantFrom(0, 73, 2.5, -1) },
    }),
    'POST /api/organizations/{id}/support-access/{requestId}/approve': async () => ({ caller: w.partnerAdmin.email, path: { id: contoso(), requestId: await supportRequest() } }),
    'POST /api/organizations/{id}/support-access/{requestId}/deny': async () => ({ caller: w.partnerAdmin.email, path: { id: contoso(), requestId: await supportRequest() } }),
    'POST /api/organizations/{id}/support-access/{requestId}/end': async () => ({ caller: w.partnerAdmin.email, path: { id: contoso(), requestId: await supportRequest('APPROVED') } }),
    // the approval mail of who settles approvals (issue 34)
    'PUT /api/notices/preferences': async () => ({ caller: w.approver.email, path: {}, body: { approval_mail: 'digest', time_zone: 'Europe/Berlin' }, badBody: { time_zone: fc.constantFrom('Mars/Base', 'UTC+2', 'Europe') } }),
    'GET /api/organizations/{id}/webhooks': async () => ({ path: { id: contoso() } }),
    'POST /api/organizations/{id}/webhooks': async () => ({ path: { id: contoso() }, body: webhookBody(), badBody: badWebhook, expect: 201 }),
    'PUT /api/organizations/{id}/webhooks/{endpointId}': async () => ({ path: { id: contoso(), endpointId: (await webhook()).endpoint }, body: webhookBody(), badBody: badWebhook }),
    'DELETE /api/organizations/{id}/webhooks/{endpointId}': async () => ({ path: { id: contoso(), endpointId: (await webhook()).endpoint }, expect: 204 }),
    'POST /api/organizations/{id}/webhooks/{endpointId}/rotate-secret': async () => ({ path: { id: contoso(), endpointId: (await webhook()).endpoint } }),
    'GET /api/organizations/{id}/webhooks/{endpointId}/deliveries': async () => ({ path: { id: contoso(), endpointId: (await webhook()).endpoint }, query: { limit: '10', status: 'delivered' } }),
    'POST /api/organizations/{id}/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver': async () => {
      const { endpoint, delivery } = await webhook();
      return { path: { id: contoso(), endpointId: endpoint, deliveryId: delivery } };
    },
  };

  // ---- the generator of spoiled requests ---------------------------------------------------------

  const unsupportedTypes = fc.constantFrom('application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/html', 'application/octet-stream', 'image/png', 'json', 'application', 'application/json-patch+json', 'text/csv');
  const invalidJson = fc.oneof(
    fc.constantFrom('{', '{"a":', '{"a":1,}', "{'a':1}", 'undefined', 'NaN', '{"a":1}}', '[1,]', '\u0000', '{"a":"\\x00"}', '{"a":"\\ud800"', 'nul', '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}'),
    fc.string({ unit: 'binary', maxLength: 30 }).filter((s) => {
      try {
        JSON.parse(s);
        return false;
      } catch {
        return true;
      }
    }),
  );
  const oversized = fc.constantFrom('object', 'string', 'array').map((shape) => {
    const filler = 'x'.repeat(BODY_LIMIT + 1);
    return shape === 'object' ? json({ description: filler }) : shape === 'string' ? JSON.stringify(filler) : `[${'1,'.repeat(BODY_LIMIT / 2 + 1)}1]`;
  });
  const prototypeKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isAdmin', 'role', 'organization_id ', 'ORGANIZATION_NAME', '');

  function spoiled(template: string, method: string, operation: Operation, valid: ValidRequest): fc.Arbitrary<Sent> {
    const params = operation.parameters ?? [];
    const bodySchema = operation.requestBody?.content['application/json']?.schema;
    const hasBody = valid.body !== undefined || valid.text !== undefined;
    const isText = valid.text !== undefined;

    const url = (path: Record<string, string>, query: Array<[string, string]>) => {
      const p = template.replace(/\{(\w+)\}/g, (_, name: string) => path[name]);
      return query.length ? `${p}?${query.map(([k, v]) => `${encode(k)}=${v}`).join('&')}` : p;
    };
    const validQuery = Object.entries(valid.query ?? {}).map(([k, v]) => [k, encode(v)] as [string, string]);
    const validUrl = url(valid.path, validQuery);
    const validPayload = isText ? valid.text! : hasBody ? json(valid.body) : undefined;
    const validType = isText ? 'text/plain; charset=utf-8' : 'application/json';
    const request = (what: string, options: { url?: string; payload?: string; type?: string | null }, field?: string): Sent => {
      const payload = 'payload' in options ? options.payload : validPayload;
      const type = options.type === undefined ? (payload !== undefined ? validType : undefined) : options.type;
      return { what, field, options: { method, url: options.url ?? validUrl, payload, headers: type ? { 'content-type': type } : {} } };
    };

    const kinds: fc.Arbitrary<Sent>[] = [];

    // Path ids that name nothing.
    for (const param of params.filter((p) => p.in === 'path')) {
      kinds.push(badPathValue(valid.path[param.name], param.schema.maxLength ?? 100).map((value) => request(`path ${param.name}`, { url: url({ ...valid.path, [param.name]: value }, validQuery) })));
    }

    // Query parameters: one spoiled, a required one missing, or given twice.
    for (const param of params.filter((p) => p.in === 'query')) {
      const others = validQuery.filter(([k]) => k !== param.name);
      const bad = fc.oneof(badQueryValue(param.schema, valid.query?.[param.name], true), ...(valid.badQuery?.[param.name] ? [valid.badQuery[param.name]] : []));
      kinds.push(bad.map((value) => request(`query ${param.name}=${JSON.stringify(value).slice(0, 80)}`, { url: url(valid.path, [...others, [param.name, encode(value)]]) }, param.name)));
      kinds.push(fc.constant(request(`query ${param.name} twice`, { url: url(valid.path, [...validQuery, [param.name, encode(valid.query?.[param.name] ?? 'x')]]) }, param.name)));
      if (param.required) kinds.push(fc.constant(request(`query ${param.name} missing`, { url: url(valid.path, others) }, param.name)));
    }

    // Bodies of a route that has none are read only as far as their media type and size (GET: not at all).
    if (method !== 'GET') kinds.push(unsupportedTypes.map((type) => request(`content-type ${type}`, { type, payload: validPayload ?? '{}' })));
    if (method !== 'GET') kinds.push(oversized.map((payload) => request(`body of ${payload.length} bytes`, { payload, type: 'application/json' })));
    if (method !== 'GET') kinds.push(invalidJson.map((payload) => request(`invalid JSON ${JSON.stringify(payload).slice(0, 80)}`, { payload, type: 'application/json' })));

    if (hasBody && !isText && valid.body !== null && typeof valid.body === 'object') {
      const body = valid.body as Record<string, unknown>;
      const properties = bodySchema?.properties ?? {};
      const entries = Object.entries(body);
      // One field spoiled (by its schema, or by what the schema cannot say).
      for (const [name, schema] of Object.entries(properties)) {
        if (schema.readOnly) continue; // read-only fields sent back: typed as GET answers them, then dropped
        const bad = fc.oneof(badValue(schema, body[name], !NOT_FREE_TEXT.has(name)), ...(valid.badBody?.[name] ? [valid.badBody[name]] : []));
        kinds.push(bad.map((value) => request(`body ${name}=${json(value).slice(0, 80)}`, { payload: json(new Obj([...entries.filter(([k]) => k !== name), [name, value]])) }, name)));
      }
      for (const name of bodySchema?.required ?? []) {
        kinds.push(fc.constant(request(`body without ${name}`, { payload: json(new Obj(entries.filter(([k]) => k !== name))) }, name)));
      }
      // Unknown keys, prototype pollution among them.
      kinds.push(fc.tuple(prototypeKeys, fc.jsonValue({ maxDepth: 2 })).filter(([key]) => !Object.hasOwn(properties, key)).map(([key, value]) =>
        request(`unknown key ${JSON.stringify(key)}`, { payload: json(new Obj([...entries, [key, value]])) }, key)));
      // Another shape: an array where the object belongs, a string, a number, null, nesting.
      kinds.push(fc.oneof(otherKind(new Set(['object'])), fc.constant(entries.map(([k, v]) => ({ [k]: v }))), deeplyNested).map((value) => request(`body ${json(value).slice(0, 80)}`, { payload: json(value) })));
      // The right JSON as text/plain.
      kinds.push(fc.constant(request('JSON as text/plain', { type: 'text/plain' })));
      kinds.push(fc.constant(request('no content-type', { type: null, payload: validPayload })));
    } else if (hasBody) {
      // A body that is one string: the description (JSON) or the master secret (text, and not a field).
      // A prototype key at its top is the field named instead.
      const bad = valid.badBody?.[''] ?? fc.constant(null);
      kinds.push(bad.map((value) => {
        const field = isText ? undefined : (forbiddenKey(JSON.parse(json(value))) ?? 'description').split('.')[0];
        return request(`body ${json(value).slice(0, 80)}`, isText && typeof value === 'string' ? { payload: value } : { payload: json(value), type: 'application/json' }, field);
      }));
    }
    return fc.oneof(...kinds);
  }

  function check(res: LightMyRequestResponse, sent: Sent, before: string, after: string) {
    const summary = `${sent.what} → ${res.statusCode} ${res.body.slice(0, 300)}\n  ${sent.options.method} ${sent.options.url.slice(0, 300)}\n  content-type ${JSON.stringify((sent.options.headers as Record<string, string>)['content-type'])} body ${String(sent.options.payload ?? '').slice(0, 300)}`;
    expect(res.statusCode, summary).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, summary).toBeLessThan(500);
    expect(String(res.headers['content-type']), summary).toMatch(/^application\/json/);
    const body = JSON.parse(res.body) as { message?: unknown; severity?: unknown; field?: unknown };
    expect(typeof body.message === 'string' && body.message.length > 0, summary).toBe(true);
    expect(['ERROR', 'WARNING'], summary).toContain(body.severity);
    // A 400 about one spoiled field or parameter names it (`domains.3` names `domains`).
    if (res.statusCode === 400 && sent.field !== undefined) expect(String(body.field).split('.')[0], summary).toBe(sent.field);
    expect(after, `${summary}\n  changed the database or the journal`).toBe(before);
  }

  let doc: { paths: Record<string, Record<string, Operation>> };
  async function operation(method: string, template: string): Promise<Operation> {
    doc ??= (await t.app.inject('/api/docs/json')).json();
    const found = doc.paths[template]?.[method.toLowerCase()];
    expect(found, `${method} ${template} is in the OpenAPI document`).toBeDefined();
    return found!;
  }

  it('covers every write route and every read route with parameters of the OpenAPI document', async () => {
    doc ??= (await t.app.inject('/api/docs/json')).json();
    const routes: string[] = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      if (!template.startsWith('/api/')) continue;
      for (const [method, op] of Object.entries(operations)) {
        const write = ['post', 'put', 'delete', 'patch'].includes(method);
        // A header parameter (the exports' If-None-Match) takes any text: no bad input to send.
        const input = op.parameters?.filter((p) => p.in !== 'header') ?? [];
        if (write || (method === 'get' && input.length > 0)) routes.push(`${method.toUpperCase()} ${template}`);
      }
    }
    expect(routes.filter((r) => !(r in ENDPOINTS)), 'routes without bad-input properties').toEqual([]);
    expect(Object.keys(ENDPOINTS).filter((r) => !routes.includes(r)), 'endpoints that are no route').toEqual([]);
  });

  it('refuses a NUL in a resource name with a 400 naming the field, also on PostgreSQL (its text cannot hold U+0000)', async () => {
    const before = await fingerprint(t);
    const res = await send(SUPERVISOR, {
      method: 'POST', url: '/api/resources',
      payload: { resource_name: 'Gate\u0000way', resource_type: 'STATIC_CONTENT', resource_access: 'PUBLIC', path_pattern: '/nul/**', location: '/srv/nul', description: 'a\u0000b' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ field: 'resource_name', message: expect.stringContaining('control characters (found U+0000') });
    expect(await fingerprint(t)).toBe(before);
  });

  for (const key of Object.keys(ENDPOINTS)) {
    const [method, template] = key.split(' ');
    it(`${key}: refuses bad input with a 4xx message and changes nothing`, async () => {
      const valid = await ENDPOINTS[key]();
      const caller = valid.caller ?? SUPERVISOR;
      const arbitrary = spoiled(template, method, await operation(method, template), valid);
      let before = await fingerprint(t);
      await fc.assert(
        fc.asyncProperty(arbitrary, async (sent) => {
          const res = await send(caller, sent.options);
          const after = await fingerprint(t);
          try {
            check(res, sent, before, after);
          } finally {
            before = after;
          }
        }),
        // The quick run gives reads half the runs of writes; the long run gives every route all of them.
        { numRuns: method === 'GET' && !LONG_RUN && process.env.FUZZ_RUNS === undefined ? Math.ceil(RUNS / 2) : RUNS, seed: SEED },
      );
      // The request every spoiled one came from succeeds: validation, not authorization or state, refused them.
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => valid.path[name]);
      const query = Object.entries(valid.query ?? {}).map(([k, v]) => `${k}=${encode(v)}`).join('&');
      const res = await send(caller, {
        method: method as 'GET', url: query ? `${path}?${query}` : path,
        payload: valid.text ?? (valid.body === undefined ? undefined : json(valid.body)),
        headers: valid.text !== undefined ? { 'content-type': 'text/plain' } : valid.body === undefined ? {} : { 'content-type': 'application/json' },
      });
      expect(res.statusCode, `the valid ${key}: ${res.body.slice(0, 300)}`).toBe(valid.expect ?? 200);
    }, TIMEOUT);
  }
});
