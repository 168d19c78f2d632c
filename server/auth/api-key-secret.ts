/**
 * The secret of an organization API key (issue 32, docs/decisions.md "API keys"), shaped the way GitHub's tokens
 * are so secret scanners find a leaked one: a prefix that names the portal's keys (`cpk_`), 256 random bits in
 * base62 (43 characters), and the CRC32 of the two in base62 (6 characters). The checksum lets a malformed or
 * mistyped secret be refused without a database look-up; it proves nothing about authenticity (the hash does).
 * Stored only as SHA-256: a secret of 256 random bits needs no salt or slow hash to resist guessing.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

const KEY_PREFIX = 'cpk_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: bigint, length: number): string {
  let out = '';
  for (let v = value; v > 0n; v /= 62n) out = ALPHABET[Number(v % 62n)] + out;
  return out.padStart(length, '0');
}

/** The CRC32 in base62, in plain numbers: every call with a key checks it, and BigInt costs more than the rest of it. */
function checksum(body: string): string {
  let out = '';
  for (let v = crc32(body); v > 0; v = Math.floor(v / 62)) out = ALPHABET[v % 62] + out;
  return out.padStart(CHECKSUM_LENGTH, '0');
}

/** A new secret: `cpk_` + 43 base62 characters of 32 random bytes + 6 of checksum. */
export function newKeySecret(): string {
  const body = KEY_PREFIX + base62(BigInt(`0x${randomBytes(32).toString('hex')}`), RANDOM_LENGTH);
  return body + checksum(body);
}

/** Whether a bearer token claims to be an API key (then only the key sign-in answers for it). */
export const looksLikeKey = (token: string) => token.startsWith(KEY_PREFIX);

/** Whether the secret has the shape and a checksum that matches (a typo or a truncated copy does not). */
export function wellFormedKey(secret: string): boolean {
  if (!SHAPE.test(secret)) return false;
  const body = secret.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === secret.slice(-CHECKSUM_LENGTH);
}

/** SHA-256 in one call (crypto.hash): a Hash object per call cost several times the digest itself. */
export const hashKeySecret = (secret: string) => hash('sha256', secret, 'hex');

/** Compares two hashes in constant time (the look-up found a row by the hash; this confirms it byte for byte). */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
