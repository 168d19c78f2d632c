/**
 * The license key: a text the vendor's software verifies offline (DECISIONS.md "Licenses").
 *
 *   CPL1.<base64url(JSON payload)>.<base64url(Ed25519 signature)>
 *
 * The signature covers the text before the last dot ("CPL1." and the encoded payload), so the
 * prefix, which names the format version, cannot be swapped either. The payload's keys are
 * always written in the same order and Ed25519 is deterministic: the same license data and key
 * give the same text.
 *
 * Pure functions over node:crypto, no I/O. Server-side only (the web app never imports this:
 * browsers have no node:crypto); vendor software can copy this one file.
 */
import { createPublicKey, KeyObject, sign, verify, type JsonWebKey } from 'node:crypto';

const LICENSE_KEY_PREFIX = 'CPL1';

export interface LicenseKeyPayload {
  license_id: string;
  license_name: string;
  license_scope: string;
  organization_id: string;
  /** ISO-8601 UTC instants; the window is [from, until). */
  date_valid_from: string;
  date_valid_until: string;
}

const FIELDS = ['license_id', 'license_name', 'license_scope', 'organization_id', 'date_valid_from', 'date_valid_until'] as const;
const SHAPE = new RegExp(`^${LICENSE_KEY_PREFIX}\\.([A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]+)$`);

export class InvalidLicenseKeyError extends Error {
  override name = 'InvalidLicenseKeyError';
}

/** Signs the payload with the portal's Ed25519 private key. */
export function encodeLicenseKey(payload: LicenseKeyPayload, privateKey: KeyObject): string {
  const ordered = Object.fromEntries(FIELDS.map((f) => [f, payload[f]]));
  const signed = `${LICENSE_KEY_PREFIX}.${Buffer.from(JSON.stringify(ordered), 'utf8').toString('base64url')}`;
  return `${signed}.${sign(null, Buffer.from(signed, 'ascii'), privateKey).toString('base64url')}`;
}

/** The public key as a PEM (SPKI) text, a JWK (`kty: OKP, crv: Ed25519`) or a KeyObject. */
export type LicensePublicKey = string | JsonWebKey | KeyObject;

function toPublicKey(key: LicensePublicKey): KeyObject {
  let object: KeyObject;
  try {
    if (typeof key === 'string') object = createPublicKey(key);
    else if (key instanceof KeyObject) object = key;
    else object = createPublicKey({ key, format: 'jwk' });
  } catch {
    throw new InvalidLicenseKeyError('The public key could not be read (expected an Ed25519 public key as PEM or JWK).');
  }
  if (object.asymmetricKeyType !== 'ed25519') throw new InvalidLicenseKeyError('The public key is not an Ed25519 key.');
  return object.type === 'private' ? createPublicKey(object) : object;
}

/**
 * Checks the signature and returns the payload, or throws InvalidLicenseKeyError saying why.
 * It does not look at the clock: whether the window [from, until) covers "now" is the caller's
 * decision (see `isLicenseKeyInForce`).
 */
export function verifyLicenseKey(key: string, publicKey: LicensePublicKey): LicenseKeyPayload {
  const match = SHAPE.exec(key.trim());
  if (!match) throw new InvalidLicenseKeyError(`Not a license key: expected ${LICENSE_KEY_PREFIX}.<payload>.<signature>.`);
  const [, encodedPayload, encodedSignature] = match;
  const signature = Buffer.from(encodedSignature, 'base64url');
  // Base64url has several spellings of the last character; only the canonical one is accepted,
  // so that every changed character of a key makes it invalid.
  if (signature.length !== 64 || signature.toString('base64url') !== encodedSignature) {
    throw new InvalidLicenseKeyError('The license key signature is malformed.');
  }
  const signed = Buffer.from(`${LICENSE_KEY_PREFIX}.${encodedPayload}`, 'ascii');
  if (!verify(null, signed, toPublicKey(publicKey), signature)) {
    throw new InvalidLicenseKeyError('The license key signature does not match: the key was changed or made with another key.');
  }
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(Buffer.from(encodedPayload, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidLicenseKeyError('The license key payload is not JSON.');
  }
  for (const field of FIELDS) {
    if (typeof payload?.[field] !== 'string') throw new InvalidLicenseKeyError(`The license key payload has no ${field}.`);
  }
  return Object.fromEntries(FIELDS.map((f) => [f, payload[f]])) as unknown as LicenseKeyPayload;
}

/** Is `now` inside the key's window [date_valid_from, date_valid_until)? */
export function isLicenseKeyInForce(payload: LicenseKeyPayload, now: Date = new Date()): boolean {
  return now.getTime() >= Date.parse(payload.date_valid_from) && now.getTime() < Date.parse(payload.date_valid_until);
}
