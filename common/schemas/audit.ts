import { z } from 'zod';
import { sortParam } from './lists';
import { JOURNAL_SORTS, type SortOf } from '../sorts';
import { text } from './text';

/** SPEC.md §3 "Audit record". */
export const auditRecordSchema = z.object({
  record_id: z.number().int(),
  reason: z.string(),
  date_created: z.string(),
  member_email: z.string().nullable(),
  message: z.string(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/**
 * GET .../auditrecords?filter&offset&limit. Unlike the other lists, paging is clamped, not
 * refused (SPEC.md §5, DECISIONS.md "Journal"): limit 100 when 0 or less, at most 1000;
 * offset 0 when negative. Text that is no number at all is still a 400.
 */
export type JournalSort = SortOf<(typeof JOURNAL_SORTS)[number]>;

export const journalQuery = z.object({
  filter: text().max(200).optional(),
  offset: z.coerce
    .number()
    .default(0)
    .transform((n) => Math.min(Math.max(0, Math.trunc(n)), Number.MAX_SAFE_INTEGER)),
  limit: z.coerce
    .number()
    .default(100)
    .transform((n) => (Math.trunc(n) <= 0 ? 100 : Math.min(Math.trunc(n), 1000))),
  sort: sortParam(JOURNAL_SORTS),
});
export type JournalQuery = z.output<typeof journalQuery>;

/** GET .../auditrecords.csv: the list's filter and order; the export holds every record, so no paging. */
export const journalExportQuery = journalQuery.pick({ filter: true, sort: true });
export type JournalExportQuery = z.output<typeof journalExportQuery>;
