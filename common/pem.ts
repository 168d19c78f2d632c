/**
 * The PEM blocks of a pasted text (RFC 7468), in their order: what a bulk upload takes apart
 * (server/modules/certificates/bulk-upload.ts) and what the upload screen counts to choose between
 * the single and the bulk call, so both see the same blocks. Only the blocks are cut out; what they
 * hold is read by the single upload's parser (x509.ts).
 */

export interface PemBlock {
  /** The label of the BEGIN line: CERTIFICATE, PRIVATE KEY, … */
  label: string;
  /** The block from its BEGIN line to its END line (or to the next BEGIN line when it has no END). */
  text: string;
  /** False when no END line of the same label comes before the next BEGIN line or the end of the text. */
  complete: boolean;
}

const BEGIN = /-----BEGIN ([A-Z0-9 ]+)-----/g;

/**
 * Each BEGIN line starts a block, which ends at its END line. A block without one ends where the
 * next block begins, so one damaged block does not swallow the good one after it. Text outside the
 * blocks (an openssl dump, a comment) is left out, as the single upload leaves it.
 */
export function pemBlocks(text: string): PemBlock[] {
  const starts = [...text.matchAll(BEGIN)];
  return starts.map((begin, i) => {
    const limit = starts[i + 1]?.index ?? text.length;
    const endLine = `-----END ${begin[1]}-----`;
    const end = text.indexOf(endLine, begin.index);
    const complete = end !== -1 && end + endLine.length <= limit;
    return { label: begin[1], text: text.slice(begin.index, complete ? end + endLine.length : limit), complete };
  });
}

/** How many CERTIFICATE blocks the text holds: one or none is a single upload, more a bulk upload. */
export const certificateBlockCount = (text: string): number => pemBlocks(text).filter((block) => block.label === 'CERTIFICATE').length;

/** RFC 4514 §2.4: `\` before a special or a pair of hex digits; the pairs are the value's UTF-8 bytes. */
function unescapeValue(value: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const hex = value[i] === '\\' ? /^[0-9A-Fa-f]{2}/.exec(value.slice(i + 1)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else {
      const c = value[i] === '\\' ? value[++i] ?? '' : value[i];
      bytes.push(...new TextEncoder().encode(c));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/**
 * The file a certificate's PEM is saved as: its common name (the first CN of the RFC 4514 DN, the most specific),
 * else the whole DN, kept to letters, digits, '.', '-' and '_' (each other run becomes one '_'), at most 100
 * characters, with `.pem` (docs/decisions.md "Certificates").
 */
export function pemFileName(dn: string): string {
  const attributes = dn.split(/(?<!\\)[,+]/);
  const cn = attributes.find((a) => /^CN=/i.test(a));
  // A wildcard's '*' would be dropped, naming its file as the bare domain's.
  const name = (cn ? unescapeValue(cn.slice(3)) : dn).replace(/^\*\./, 'wildcard.');
  const safe = name.replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^[._]+|[._]+$/g, '').slice(0, 100);
  return `${safe || 'certificate'}.pem`;
}
