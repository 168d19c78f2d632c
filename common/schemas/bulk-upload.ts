/**
 * Bulk certificate upload (issue 12 item 5, docs/decisions.md "Bulk upload"): one text holding
 * several PEM blocks, as pasted or as read from one or several files, answered per block.
 */
import { z } from 'zod';
import { strictBody } from './body';
import { descriptionSchema } from './certificate';

/** Blocks in one call: more is refused whole, before anything is stored. */
export const BULK_UPLOAD_MAX_CERTIFICATES = 100;
/** The text's size: a hundred certificates of the single upload's 64 KiB each. */
export const BULK_UPLOAD_MAX_BYTES = BULK_UPLOAD_MAX_CERTIFICATES * 64 * 1024;
/**
 * The route's body limit: the text above as JSON (a PEM's line ends escaped, `\r\n` four bytes for
 * two) with its description fits well inside 8 MiB. Other routes keep 256 KiB.
 */
export const BULK_UPLOAD_BODY_LIMIT = 8 * 1024 * 1024;

export const bulkUploadSchema = strictBody({
  description: descriptionSchema.default('').describe('Given to every certificate of the text.'),
  // Not free text: only the parsed certificates are kept.
  certificates: z
    .string()
    .describe(
      `One or more PEM CERTIFICATE blocks in one text (pasted, or files joined), at most ${BULK_UPLOAD_MAX_CERTIFICATES} blocks and ${BULK_UPLOAD_MAX_BYTES / 1024} KiB. Text between the blocks is ignored.`,
    ),
});
export type BulkUpload = z.input<typeof bulkUploadSchema>;

const bulkUploadItemSchema = z.object({
  index: z.number().int().describe('The block\'s position in the text, from 1.'),
  distinguished_name: z.string().nullable().describe('The subject, when the block could be read as a certificate.'),
  outcome: z.enum(['uploaded', 'refused']),
  message: z.string().describe('What happened: the single upload\'s refusal (400 or 409 message) for a refused block.'),
});
export type BulkUploadItem = z.infer<typeof bulkUploadItemSchema>;

export const bulkUploadResultSchema = z.object({
  uploaded: z.number().int().describe('How many blocks were stored (each waits for approval).'),
  refused: z.number().int().describe('How many blocks were refused; nothing of them was stored.'),
  results: z.array(bulkUploadItemSchema).describe('One entry per block, in the order of the text.'),
});
export type BulkUploadResult = z.infer<typeof bulkUploadResultSchema>;
