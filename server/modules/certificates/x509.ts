/**
 * Reading an uploaded certificate: exactly one PEM CERTIFICATE block, parsed by real X.509
 * parsers (Node's crypto checks the structure; the ASN.1 schema gives the fields Node does not).
 * Every refusal says what is wrong, in words an operator can act on (DECISIONS.md "Certificates").
 */
import { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, id_ce_subjectAltName, SubjectAlternativeName, type Name } from '@peculiar/asn1-x509';
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
  /** SHA-256 of the DER, as openssl and browsers show it; stored, so the CSV exports need not read the PEM. */
  fingerprint_sha256: string;
}

/** One subject alternative name of the kinds operators check (docs/decisions.md "Certificates"). */
interface AlternativeName {
  type: 'DNS' | 'IP' | 'email' | 'URI';
  value: string;
}

/** What the details show beyond the stored columns, read from the stored PEM. */
export interface CertificateFacts {
  issuer: string;
  fingerprint_sha256: string;
  subject_alternative_names: AlternativeName[];
  key_algorithm: string;
  key_size: number | null;
  key_curve: string | null;
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

/** Node's curve names as the NIST names operators know; others as Node names them. */
const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };
const CURVE_BITS: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521 };
const KEY_TYPES: Record<string, string> = { rsa: 'RSA', 'rsa-pss': 'RSA-PSS', dsa: 'DSA', ec: 'EC', ed25519: 'Ed25519', ed448: 'Ed448' };
const ED_BITS: Record<string, number> = { ed25519: 256, ed448: 448 };

function alternativeNames(asn: Certificate): AlternativeName[] {
  const extension = asn.tbsCertificate.extensions?.find((e) => e.extnID === id_ce_subjectAltName);
  if (!extension) return [];
  const names: AlternativeName[] = [];
  for (const name of AsnConvert.parse(extension.extnValue, SubjectAlternativeName)) {
    if (name.dNSName !== undefined) names.push({ type: 'DNS', value: name.dNSName });
    else if (name.iPAddress !== undefined) names.push({ type: 'IP', value: name.iPAddress }); // as text already (RFC 5952 for IPv6)
    else if (name.rfc822Name !== undefined) names.push({ type: 'email', value: name.rfc822Name });
    else if (name.uniformResourceIdentifier !== undefined) names.push({ type: 'URI', value: name.uniformResourceIdentifier });
  }
  return names;
}

/**
 * The issuer, alternative names and public key of a stored PEM (one the upload accepted). The key's
 * size: the modulus of RSA and DSA, the curve's of EC and EdDSA.
 */
export function certificateFacts(pem: string): CertificateFacts {
  const certificate = new X509Certificate(pem);
  return factsOf(certificate, AsnConvert.parse(certificate.raw, Certificate));
}

function factsOf(certificate: X509Certificate, asn: Certificate): CertificateFacts {
  let key = { key_algorithm: asn.tbsCertificate.subjectPublicKeyInfo.algorithm.algorithm, key_size: null as number | null, key_curve: null as string | null };
  try {
    const publicKey = certificate.publicKey;
    const type = publicKey.asymmetricKeyType ?? '';
    const details = publicKey.asymmetricKeyDetails ?? {};
    const curve = details.namedCurve;
    key = {
      key_algorithm: KEY_TYPES[type] ?? (type || key.key_algorithm),
      key_size: details.modulusLength ?? (curve ? (CURVE_BITS[curve] ?? null) : (ED_BITS[type] ?? null)),
      key_curve: curve ? (CURVES[curve] ?? curve) : null,
    };
  } catch {
    // A key type this Node cannot load (a rare curve): the algorithm's OID, no size.
  }
  return {
    issuer: rfc4514(asn.tbsCertificate.issuer), fingerprint_sha256: certificate.fingerprint256, subject_alternative_names: alternativeNames(asn), ...key,
  };
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

export function parseCertificatePem(text: unknown): ParsedCertificate {
  return readCertificatePem(text).parsed;
}

/**
 * An upload's columns and its details' facts from one parse: the upload answers with the details, and each of
 * Node's and the schema's parses cost about 0.15 ms (a second parse of the stored PEM was an eighth of an upload's CPU).
 */
export function readCertificatePem(text: unknown): { parsed: ParsedCertificate; facts: CertificateFacts } {
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
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(der);
    asn = AsnConvert.parse(der, Certificate);
  } catch {
    throw badRequest('The certificate could not be read: the block is not a valid X.509 certificate.', 'certificate');
  }
  const tbs = asn.tbsCertificate;
  const dn = rfc4514(tbs.subject);
  if (!dn) throw badRequest('The certificate has an empty subject; it needs a distinguished name.', 'certificate');
  const lines = body.match(/.{1,64}/g)!.join('\n');
  const facts = factsOf(certificate, asn);
  const parsed = {
    distinguished_name: dn,
    serial_number: Buffer.from(tbs.serialNumber).toString('hex').toUpperCase(),
    signature: Buffer.from(asn.signatureValue).toString('hex').toUpperCase(),
    signature_algorithm: SIGNATURE_ALGORITHMS[asn.signatureAlgorithm.algorithm] ?? asn.signatureAlgorithm.algorithm,
    version: tbs.version + 1,
    date_not_before: tbs.validity.notBefore.getTime().toISOString(),
    date_not_after: tbs.validity.notAfter.getTime().toISOString(),
    certificate_pem: `-----BEGIN CERTIFICATE-----\n${lines}\n-----END CERTIFICATE-----\n`,
    // Node's fingerprint256: the DER's SHA-256 as colon-separated upper-case hex, as openssl and browsers show it.
    fingerprint_sha256: facts.fingerprint_sha256,
  };
  return { parsed, facts };
}
