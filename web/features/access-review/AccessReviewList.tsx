/**
 * The access review's list (issue 33), on an organization's page and in the admin area: who holds which role, since
 * and until when, granted by whom, standing or time-boxed; a filter by kind, pages, and the CSV of the same rows.
 */
import { useState } from 'react';
import { Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { label } from '../../../common/enums';
import { formatDateMinute } from '../../../common/dates';
import type { AccessReviewRow } from '../../../common/schemas/access-review';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { ExportCsvButton } from '../../components/ExportCsvButton';
import { PagedList } from '../../components/PagedList';
import { useListSearch } from '../../components/useListSearch';
import { usePageSize } from '../../lib/preferences';
import { accessReviewPath, useAccessReview, type AccessReviewRequest } from './api/get-access-review';

const columns = (organizations: boolean): DataColumn<AccessReviewRow>[] => [
  ...(organizations ? [{ header: 'Organization', breakAnywhere: true, cell: (r: AccessReviewRow) => r.organization_name }] : []),
  { header: 'Member', breakAnywhere: true, cell: (r) => (
    <Stack gap={0}>
      <Text size="sm">{r.name}</Text>
      <Text size="xs" c="dimmed">{r.member_email}</Text>
    </Stack>
  ) },
  { header: 'Role', cell: (r) => `${label(r.role)} (${label(r.scope)})` },
  { header: 'Since', nowrap: true, cell: (r) => (r.since ? formatDateMinute(r.since) : 'not recorded') },
  { header: 'Until', nowrap: true, cell: (r) => (r.until ? formatDateMinute(r.until) : '-') },
  { header: 'Granted by', breakAnywhere: true, cell: (r) => r.granted_by ?? 'not recorded' },
  // Words, not badges: a badge's capitals are cut short in a table of seven columns at laptop width.
  {
    header: 'Kind', nowrap: true,
    cell: (r) => r.kind === 'SUPPORT'
      ? <Text size="sm" fw={700} c={r.break_glass ? 'red' : undefined}>{`Vendor support #${r.support_request}${r.break_glass ? ', break glass' : ''}`}</Text>
      : r.kind === 'TIME_BOXED' ? <Text size="sm" fw={700}>Time-boxed</Text> : <Text size="sm">Standing</Text>,
  },
];

const KINDS = [
  { value: 'ALL', label: 'All' },
  { value: 'STANDING', label: 'Standing' },
  { value: 'TIME_BOXED', label: 'Time-boxed' },
  { value: 'SUPPORT', label: 'Vendor support' },
];

/** `organizationId` null: every organization the caller may review (the admin area). */
export function AccessReviewList({ organizationId }: { organizationId: string | null }) {
  const [pageSize] = usePageSize();
  const { page, offset, setPage } = useListSearch(pageSize);
  const [kind, setKind] = useState('ALL');
  const request: AccessReviewRequest = { kind: kind === 'ALL' ? undefined : (kind as AccessReviewRequest['kind']), offset, limit: pageSize };
  const review = useAccessReview(organizationId, request);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="xs">
        <SegmentedControl aria-label="Show" data={KINDS} value={kind} onChange={(value) => { setKind(value); setPage(1); }} />
        <ExportCsvButton path={accessReviewPath(organizationId)} request={{ kind: request.kind }} name="access-review" />
      </Group>
      <PagedList query={review} noun="assignments" errorText="The access review could not be loaded." emptyText="No role assignments." page={page} pageSize={pageSize} onPage={setPage}>
        {(items) => (
          <DataTable label="Access review" columns={columns(!organizationId)} rows={items} rowKey={(r) => `${r.organization_id}|${r.member_id}|${r.role}`} minWidth={0} dense />
        )}
      </PagedList>
    </Stack>
  );
}
