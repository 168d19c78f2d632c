/**
 * routes.hcl read back by an independent HCL2 parser gives exactly the strings the portal stored
 * (issue 9, "Export round trip"). The parser is HashiCorp's Go HCL2 (hclsyntax) compiled to wasm,
 * wrapped by hcl2json (@cdktf/hcl2json).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { parse as parseHcl } from '@cdktf/hcl2json';
import { testDialects } from '../../../test/support/databases';
import { useTestApp, type TestApp } from '../../../test/support/test-app';
import { factories } from '../../../test/support/factories';
import { isAbsoluteLocation } from '../../../common/schemas/resource';
import { isPlainText } from '../../../common/schemas/text';
import { hclString } from './exports';

const dialects = await testDialects();

/**
 * hcl2json answers in HCL's JSON syntax, where every string is itself a template: it writes a
 * literal `${` as `$${` and `%{` as `%%{` (its escapeLiteral), and an interpolation or directive
 * as a bare `${…}`/`%{…}`. This undoes that, and fails when the value was not a plain literal:
 * a string of routes.hcl that the gateway would evaluate instead of reading as text.
 */
function literal(json: unknown): string {
  if (typeof json !== 'string') throw new Error(`not a string: ${JSON.stringify(json)}`);
  let out = '';
  for (let i = 0; i < json.length; ) {
    if (json.startsWith('$${', i) || json.startsWith('%%{', i)) {
      out += `${json[i]}{`;
      i += 3;
    } else if (json.startsWith('${', i) || json.startsWith('%{', i)) {
      throw new Error(`an interpolation or directive, not literal text: ${JSON.stringify(json)}`);
    } else {
      out += json[i];
      i += 1;
    }
  }
  return out;
}

/**
 * What HCL makes of a string: a string value is a sequence of Unicode characters compared after
 * NFC normalization (HCL spec, "Primitive Types"), and the Go implementation (cty) hands every
 * string out in NFC. So `e` + U+0301 reads back as `é`: HCL's rule, not a fault of the parser or of
 * the escaping. A lone UTF-16 surrogate cannot be written in UTF-8 at all (no database text holds
 * one); it is written, and read, as U+FFFD.
 */
const asHclReadsIt = (value: string) => value.replace(/[\ud800-\udfff]/gu, '\ufffd').normalize('NFC');

/** The pieces that matter to a quoted template, and any code point (astral ones too). */
const tricky = fc.constantFrom(
  '"', '\\', '\\\\', '\\"', '\\n', '\\u0041', '$', '%', '{', '}', '${', '%{', '$${', '%%{', '$$', '%%', '${~', '~}', '${HOME}', '%{ if true }',
  '\n', '\r', '\r\n', '\t', '\u0000', '\u0001', '\u001b', '\u007f', '\u0085', '\u009f', '\u00a0', '\u2028', '\u2029', '\ufeff',
  'é', 'e\u0301', 'Å', '\u212b', '😀', '𝄞', '\u{10ffff}', '\u{e0041}', ' ', '#', '//', '/*', '*/', '<<EOF', '=',
);
const unit = fc.oneof(
  { arbitrary: tricky, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 3 },
  { arbitrary: fc.constantFrom(...'ab/._-'), weight: 2 },
);
const text = (maxLength: number) => fc.string({ unit, maxLength });

async function parseRoutes(body: string) {
  return (await parseHcl('routes.hcl', body)) as { resource?: Record<string, Array<Record<string, unknown>>> };
}

describe('hclString', () => {
  it('writes any string as a quoted template that HCL reads back as that string', async () => {
    await fc.assert(
      fc.asyncProperty(text(40), async (value) => {
        const parsed = await parseHcl('value.hcl', `value = ${hclString(value)}\n`);
        expect(literal(parsed.value)).toBe(asHclReadsIt(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps interpolation and directive openers literal, and escapes every control character', async () => {
    const samples = ['${HOME}', '%{ if true }x%{ endif }', '$${', '$$${x}', '%%{', 'a$', '100%', '"\\"', 'tab\there', 'cr\rlf\n', '\u0000\u0007\u007f\u0085\u2028', '\ud800x\udc00'];
    for (const value of samples) {
      const written = hclString(value);
      // One line, and no raw control character for a reader to choke on.
      expect(written).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
      expect(literal((await parseHcl('value.hcl', `value = ${written}\n`)).value), JSON.stringify(value)).toBe(asHclReadsIt(value));
    }
    expect(hclString('${HOME}')).toBe('"$${HOME}"');
    expect(hclString('%{x}')).toBe('"%%{x}"');
    expect(hclString('a\u0000b')).toBe('"a\\u0000b"');
  });

  it('reads a name in decomposed form back in NFC, the form HCL defines strings by', async () => {
    const parsed = await parseHcl('value.hcl', `value = ${hclString('Caf\u0065\u0301')}\n`);
    expect(literal(parsed.value)).toBe('Caf\u00e9');
  });
});

describe.each(dialects)('routes.hcl round trip on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The operator's DevOps, who stores resources and pulls routes.hcl. */
  let DEVOPS: string;
  beforeAll(async () => {
    DEVOPS = (await make.member(await make.organization({ role: 'OPERATOR' }), { role: 'DEVOPS', scope: 'COOPERATION' })).email;
  });

  async function readBack(t: TestApp) {
    const res = await t.call(DEVOPS, { method: 'GET', url: '/api/piston/routes.hcl' });
    expect(res.statusCode).toBe(200);
    const blocks = (await parseRoutes(res.body)).resource ?? {};
    return new Map(Object.entries(blocks).map(([id, [block]]) => [id, block]));
  }

  async function expectRoundTrip(t: TestApp, ids: string[]) {
    const stored = await t.db.selectFrom('resources').selectAll().where('resource_id', 'in', ids).execute();
    expect(stored).toHaveLength(ids.length);
    const read = await readBack(t);
    for (const row of stored) {
      const block = read.get(row.resource_id);
      expect(block, row.resource_id).toBeDefined();
      expect({
        name: literal(block!.name),
        path_pattern: literal(block!.path_pattern),
        location: literal(block!.location),
        type: literal(block!.type),
        access: literal(block!.access),
        ordinal: block!.ordinal,
      }).toEqual({ name: row.resource_name, path_pattern: row.path_pattern, location: row.location, type: row.resource_type, access: row.resource_access, ordinal: row.ordinal });
    }
  }

  // PostgreSQL text cannot hold NUL; NFC because that is how HCL reads strings (asHclReadsIt).
  const storable = (value: string) => (dialect === 'postgres' ? value.replace(/\u0000/g, '') : value).normalize('NFC');

  it('gives back exactly the stored strings of rows that no validation saw', async () => {
    const row = fc.record({ name: text(40), location: text(60), path_pattern: text(60) });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 4 }), async (rows) => {
        const ids = rows.map(() => randomUUID());
        const next = Number((await t.db.selectFrom('resources').select((eb) => eb.fn.max('ordinal').as('max')).executeTakeFirst())?.max ?? 0) + 1;
        await t.db.insertInto('resources').values(rows.map((r, i) => ({
          resource_id: ids[i], ordinal: next + i, resource_name: storable(r.name), location: storable(r.location), path_pattern: storable(r.path_pattern),
          resource_type: 'STATIC_CONTENT', resource_access: 'PUBLIC', description: null,
        }))).execute();
        try {
          await expectRoundTrip(t, ids);
        } finally {
          await t.db.deleteFrom('resources').where('resource_id', 'in', ids).execute();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('gives back exactly what the resources API stored, for any name, location and pattern it accepts', async () => {
    const segment = fc.oneof(
      fc.constant('**'),
      fc.string({ unit: fc.constantFrom(...'abcXYZ019._~-*{},'), minLength: 1, maxLength: 8 }).filter((s) => s !== '.' && s !== '..'),
    );
    const input = fc.record({
      // The API trims names and refuses blank ones and control characters but tab and line feed (so
      // no NUL, which PostgreSQL text cannot hold) and lone surrogates (docs/decisions.md "Platform"); NFC as above.
      resource_name: text(40).map((s) => s.normalize('NFC')).filter((s) => s.trim() !== '' && isPlainText(s)),
      // Trimmed and NFC first, as the API reads it (common/schemas/resource.ts): "/..\uFEFF" is the segment "..".
      location: text(60).map((s) => `/${s}`.trim().normalize('NFC')).filter((s) => isAbsoluteLocation(s) && isPlainText(s)),
      path_pattern: fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(input, { minLength: 1, maxLength: 3 }), async (inputs) => {
        const ids: string[] = [];
        try {
          for (const body of inputs) {
            const res = await t.call(DEVOPS, { method: 'POST', url: '/api/resources', payload: { ...body, resource_type: 'IMAGE_STORE', resource_access: 'DEFAULT' } });
            expect(res.statusCode, res.body).toBe(201);
            ids.push(res.json().resource_id);
          }
          await expectRoundTrip(t, ids);
        } finally {
          if (ids.length) await t.db.deleteFrom('resources').where('resource_id', 'in', ids).execute();
        }
      }),
      { numRuns: 25 },
    );
  });
});
