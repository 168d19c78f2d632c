import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { encodeLicenseKey, InvalidLicenseKeyError, isLicenseKeyInForce, verifyLicenseKey, type LicenseKeyPayload } from './license-key';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const payload: LicenseKeyPayload = {
  license_id: '5d6c1b1e-7c7b-4d39-9d8e-0d1f6f0b9a11',
  license_name: 'Zoë Überall "lab" (renewal 2)',
  license_scope: 'LAB',
  organization_id: 'f0e1d2c3-b4a5-4968-8776-655443322110',
  date_valid_from: '2026-03-19T23:00:00.000Z',
  date_valid_until: '2026-03-29T23:00:00.000Z',
};
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';

describe('license keys', () => {
  const key = encodeLicenseKey(payload, privateKey);

  it('has the documented shape and verifies with the PEM, the JWK or the KeyObject', () => {
    expect(key).toMatch(/^CPL1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(verifyLicenseKey(key, pem)).toEqual(payload);
    expect(verifyLicenseKey(`  ${key}\n`, publicKey.export({ format: 'jwk' }))).toEqual(payload);
    expect(verifyLicenseKey(key, publicKey)).toEqual(payload);
  });

  it('is the same text for the same data, whatever the order of the fields given', () => {
    const shuffled = Object.fromEntries(Object.entries(payload).reverse()) as unknown as LicenseKeyPayload;
    expect(encodeLicenseKey(shuffled, privateKey)).toBe(key);
    expect(encodeLicenseKey({ ...payload, license_scope: 'PRODUCTION' }, privateKey)).not.toBe(key);
  });

  it('fails when any single character is changed, dropped or added', () => {
    for (let i = 0; i < key.length; i++) {
      const other = ALPHABET[(ALPHABET.indexOf(key[i]) + 1) % ALPHABET.length];
      for (const tampered of [key.slice(0, i) + other + key.slice(i + 1), key.slice(0, i) + key.slice(i + 1)]) {
        expect(() => verifyLicenseKey(tampered, publicKey), `position ${i}`).toThrow(InvalidLicenseKeyError);
      }
    }
    expect(() => verifyLicenseKey(`${key}A`, publicKey)).toThrow(InvalidLicenseKeyError);
  });

  it('fails with another public key, another prefix or no key at all', () => {
    const stranger = generateKeyPairSync('ed25519').publicKey;
    expect(() => verifyLicenseKey(key, stranger)).toThrow(/does not match/);
    expect(() => verifyLicenseKey(key.replace('CPL1.', 'CPL2.'), publicKey)).toThrow(/Not a license key/);
    expect(() => verifyLicenseKey('', publicKey)).toThrow(/Not a license key/);
    expect(() => verifyLicenseKey(key, generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey)).toThrow(/not an Ed25519 key/);
    expect(() => verifyLicenseKey(key, 'not a key')).toThrow(/could not be read/);
  });

  it('tells whether the window covers an instant; the end is exclusive', () => {
    expect(isLicenseKeyInForce(payload, new Date('2026-03-19T22:59:59.999Z'))).toBe(false);
    expect(isLicenseKeyInForce(payload, new Date('2026-03-19T23:00:00.000Z'))).toBe(true);
    expect(isLicenseKeyInForce(payload, new Date('2026-03-29T23:00:00.000Z'))).toBe(false);
  });
});
