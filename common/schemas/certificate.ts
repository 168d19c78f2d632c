import { z } from 'zod';
import { abilitiesOf } from './abilities';
import { strictBody } from './body';
import { text } from './text';

const person = z.object({ member_id: z.string(), name: z.string() }).nullable();

/** A row of the certificate lists (SPEC.md §3 without the PEM and signature). */
export const certificateSummarySchema = z.object({
  distinguished_name: z.string(),
  description: z.string(),
  owner: person,
  date_not_before: z.string(),
  date_not_after: z.string(),
  date_approved: z.string().nullable(),
  date_revoked: z.string().nullable(),
  date_expiry_acknowledged: z.string().nullable(),
  date_created: z.string(),
  organization_id: z.string(),
  organization_name: z.string(),
  abilities: abilitiesOf('certificate'),
});
export type CertificateSummary = z.infer<typeof certificateSummarySchema>;

/** A subject alternative name of the kinds operators check (docs/decisions.md "Certificates"). */
const alternativeNameSchema = z.object({
  type: z.enum(['DNS', 'IP', 'email', 'URI']),
  value: z.string().describe('The name: a host name, an IPv4 or IPv6 address, an email address or a URI.'),
});

/** SPEC.md §3 "Certificate", with the fields operators check added (issue 34): added only, none renamed. */
export const certificateSchema = certificateSummarySchema.extend({
  approver: person,
  certificate_pem: z.string(),
  serial_number: z.string(),
  signature: z.string(),
  signature_algorithm: z.string(),
  version: z.number().int(),
  issuer: z.string().describe('The issuer\'s distinguished name, written as the subject\'s (RFC 4514).'),
  fingerprint_sha256: z.string().describe('SHA-256 of the certificate\'s DER, colon-separated upper-case hex, as openssl and browsers show it.'),
  subject_alternative_names: z.array(alternativeNameSchema).describe('The DNS, IP, email and URI names of the subject alternative name extension, in its order; other kinds are left out.'),
  key_algorithm: z.string().describe('The public key\'s algorithm: RSA, RSA-PSS, DSA, EC, Ed25519, Ed448, or the OID of another.'),
  key_size: z.number().int().nullable().describe('The key\'s size in bits: the modulus of RSA and DSA, the curve\'s of EC and EdDSA; null when unknown.'),
  key_curve: z.string().nullable().describe('The named curve of an EC key (P-256, P-384, P-521, or its OpenSSL name); null for other keys.'),
});
export type Certificate = z.infer<typeof certificateSchema>;

/** A certificate's description: the upload's field, and the body of PUT …/description (a JSON string). */
export const descriptionSchema = text().max(1000, 'may have at most 1000 characters');

/** Upload payload. The size limit is checked by the server with a clear message, not here. */
export const certificateUploadSchema = strictBody({
  description: descriptionSchema.default(''),
  // Not free text: only the parsed certificate is kept (a PEM read from a file may have CRLF lines).
  certificate: z.string(),
});
