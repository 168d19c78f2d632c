/**
 * Reading an uploaded certificate: exactly one PEM CERTIFICATE block, parsed by real X.509
 * parsers (Node's crypto checks the structure; the ASN.1 schema gives the fields Node does not).
 * Every refusal says what is wrong, in words an operator can act on (DECISIONS.md "Certificates").
 */
import { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, type Name } from '@peculiar/asn1-x509';
import { badRequest } from '../../errors';

const MAX_PEM_BYTES = 64 * 1024;

export interface ParsedCertificate {
  distinguished_name: string;
  serial_number: string;
  signature: string;
  signature_algorithm: string;
  version: number;
  date_not_before: string;
  date_not_after: string;
  /** The normalised PEM: the one block, without the surrounding text. */
  certificate_pem: string;
}

// RFC 4514 §3 short names; any other attribute is written as its dotted OID.
const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN', '2.5.4.7': 'L', '2.5.4.8': 'ST', '2.5.4.10': 'O', '2.5.4.11': 'OU', '2.5.4.6': 'C',
  '2.5.4.9': 'STREET', '0.9.2342.19200300.100.1.25': 'DC', '0.9.2342.19200300.100.1.1': 'UID',
  '2.5.4.5': 'serialNumber', '1.2.840.113549.1.9.1': 'emailAddress',
};

const SIGNATURE_ALGORITHMS: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.3.101.112': 'Ed25519',
  '1.3.101.113': 'Ed448',
};

/** RFC 4514 §2.4: escape specials, a leading space or '#', and a trailing space. */
function escapeValue(value: string): string {
  return value
    .replace(/[\\"+,;<>=]/g, (c) => `\\${c}`)
    .replace(/\0/g, '\\00')
    .replace(/^([ #])/, '\\$1')
    .replace(/ $/, '\\ ');
}

/** RFC 4514 string: the last RDN of the sequence first, RDNs joined by ',', multi-valued by '+'. */
function rfc4514(name: Name): string {
  return [...name]
    .reverse()
    .map((rdn) =>
      [...rdn]
        .map((atv) => {
          const key = SHORT_NAMES[atv.type] ?? atv.type;
          const raw = atv.value.anyValue ? `#${Buffer.from(atv.value.anyValue).toString('hex')}` : escapeValue(atv.value.toString());
          return `${key}=${raw}`;
        })
        .join('+'),
    )
    .join(',');
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

export function parseCertificatePem(text: unknown): ParsedCertificate {
  if (typeof text !== 'string' || !text.trim()) {
    throw badRequest('Paste the certificate in PEM form: the text from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.', 'certificate');
  }
  if (Buffer.byteLength(text) > MAX_PEM_BYTES) {
    throw badRequest('The certificate text is larger than 64 KiB; upload one certificate only.', 'certificate');
  }
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    throw badRequest('This text holds a private key. Upload only the certificate, and keep the private key secret.', 'certificate');
  }
  const blocks = [...text.matchAll(BLOCK)];
  const certificates = blocks.filter((b) => b[1] === 'CERTIFICATE');
  if (certificates.length === 0) {
    const other = blocks[0]?.[1];
    throw badRequest(
      other
        ? `Expected a CERTIFICATE block, but found ${other}.`
        : 'The certificate must be in PEM form, between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE----- lines (DER or bare base64 is not accepted).',
      'certificate',
    );
  }
  if (certificates.length > 1) {
    throw badRequest(`Upload one certificate at a time; this text holds ${certificates.length} (a chain?).`, 'certificate');
  }
  const body = certificates[0][2].replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) {
    throw badRequest('The certificate block is not valid base64.', 'certificate');
  }
  const der = Buffer.from(body, 'base64');
  // Node decodes leniently (missing padding, stray bits): only text that is exactly the base64 of
  // its bytes is the certificate it claims to be (RFC 7468 §3); anything else was damaged on the way.
  if (der.toString('base64') !== body) {
    throw badRequest('The certificate block is not valid base64: characters are missing or changed (the padding "=" included).', 'certificate');
  }
  let asn: Certificate;
  try {
    new X509Certificate(der);
    asn = AsnConvert.parse(der, Certificate);
  } catch {
    throw badRequest('The certificate could not be read: the block is not a valid X.509 certificate.', 'certificate');
  }
  const tbs = asn.tbsCertificate;
  const dn = rfc4514(tbs.subject);
  if (!dn) throw badRequest('The certificate has an empty subject; it needs a distinguished name.', 'certificate');
  const lines = body.match(/.{1,64}/g)!.join('\n');
  return {
    distinguished_name: dn,
    serial_number: Buffer.from(tbs.serialNumber).toString('hex').toUpperCase(),
    signature: Buffer.from(asn.signatureValue).toString('hex').toUpperCase(),
    signature_algorithm: SIGNATURE_ALGORITHMS[asn.signatureAlgorithm.algorithm] ?? asn.signatureAlgorithm.algorithm,
    version: tbs.version + 1,
    date_not_before: tbs.validity.notBefore.getTime().toISOString(),
    date_not_after: tbs.validity.notAfter.getTime().toISOString(),
    certificate_pem: `-----BEGIN CERTIFICATE-----\n${lines}\n-----END CERTIFICATE-----\n`,
  };
}
