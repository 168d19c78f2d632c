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

/** SPEC.md §3 "Certificate". */
export const certificateSchema = certificateSummarySchema.extend({
  approver: person,
  certificate_pem: z.string(),
  serial_number: z.string(),
  signature: z.string(),
  signature_algorithm: z.string(),
  version: z.number().int(),
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
