/** "Showing members 1–100 of 250" and numbered page buttons under a paged list (X-Total-Count). */
import { Group, Pagination, Text } from '@mantine/core';

export interface ListPagingProps {
  total: number;
  /** Rows on this page. */
  count: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** What the rows are, plural and lower case: "records", "licenses". */
  noun: string;
}

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

export function ListPaging({ total, count, page, pageSize, onPage, noun }: ListPagingProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  // A page past the end (an old link, rows removed meanwhile) has no rows to count.
  const summary = count === 0 ? `${total} ${noun}` : `Showing ${noun} ${first}–${first + count - 1} of ${total}`;
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {summary}
      </Text>
      {pages > 1 ? (
        <nav aria-label={`Pages of ${noun}`}>
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={onPage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        </nav>
      ) : null}
    </Group>
  );
}
