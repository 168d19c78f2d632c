/**
 * "Showing members 1–100 of 250" and numbered page buttons under a paged list (X-Total-Count), and
 * where the list lets the person choose: rows per page (25, 50, 100) and compact rows, remembered in
 * this browser for every list (lib/preferences.ts).
 */
import { Group, NativeSelect, Pagination, Switch, Text } from '@mantine/core';
import { PAGE_SIZES, useCompactRows, usePageSize, type PageSize } from '../lib/preferences';

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
  /** Offer rows per page and compact rows (lists whose page size is the person's, usePageSize). */
  adjustable?: boolean;
}

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** Rows per page and compact rows; a new page size keeps the first row of the page in view. */
function ListPreferences({ page, pageSize, onPage }: Pick<ListPagingProps, 'page' | 'pageSize' | 'onPage'>) {
  const [, setPageSize] = usePageSize();
  const [compact, setCompact] = useCompactRows();
  return (
    <Group gap="md" wrap="wrap" align="center">
      <NativeSelect
        size="xs"
        label="Rows per page"
        styles={{ root: { display: 'flex', alignItems: 'center', gap: 8 }, label: { fontWeight: 400 } }}
        data={PAGE_SIZES.map(String)}
        value={String(pageSize)}
        onChange={(event) => {
          const next = Number(event.currentTarget.value) as PageSize;
          const first = (page - 1) * pageSize;
          setPageSize(next);
          onPage(Math.floor(first / next) + 1);
        }}
      />
      <Switch size="xs" label="Compact rows" checked={compact} onChange={(event) => setCompact(event.currentTarget.checked)} />
    </Group>
  );
}

export function ListPaging({ total, count, page, pageSize, onPage, noun, adjustable = false }: ListPagingProps) {
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
      {adjustable ? <ListPreferences page={page} pageSize={pageSize} onPage={onPage} /> : null}
    </Group>
  );
}
