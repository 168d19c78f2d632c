/**
 * Per organization: pending certificate approvals and the latest certificate of each event.
 * A table on wider screens, one card per organization on phones (DataTable).
 */
import { Text } from '@mantine/core';
import { formatDateTime } from '../../../../common/dates';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { EVENTS, type LatestCertificate, type OrganizationStatistics, type PistonEvent } from './summary';

const EVENT_LABELS: Record<PistonEvent, string> = {
  upload: 'Latest upload',
  approve: 'Latest approve',
  revoke: 'Latest revoke',
  valid: 'Latest valid',
  expired: 'Latest expired',
};

/** The archive keeps a folder per organization; the row names the organization already. */
const baseName = (fileName: string) => fileName.slice(fileName.lastIndexOf('/') + 1);

function Latest({ latest }: { latest: LatestCertificate | null }) {
  if (!latest) return <Text size="sm">-</Text>;
  return (
    <>
      <Text size="sm" className="break-anywhere">
        {latest.distinguished_name}
      </Text>
      <Text size="xs" c="dimmed">
        {formatDateTime(latest.date_modified)}
      </Text>
      {latest.file_name ? (
        <Text size="xs" c="dimmed" ff="monospace" className="break-anywhere" title={latest.file_name}>
          {baseName(latest.file_name)}
        </Text>
      ) : (
        <Text size="xs" c="dimmed">
          not in the archive
        </Text>
      )}
    </>
  );
}

const COLUMNS: DataColumn<OrganizationStatistics>[] = [
  { header: 'Organization', rowHeader: true, width: '140px', breakAnywhere: true, cell: (o) => o.organization_name },
  { header: 'Pending approvals', width: '90px', align: 'end', cell: (o) => o.cert_unapproved },
  ...EVENTS.map((event): DataColumn<OrganizationStatistics> => ({ header: EVENT_LABELS[event], cell: (o) => <Latest latest={o.latest[event]} /> })),
];

export function OrganizationChangesTable({ organizations }: { organizations: OrganizationStatistics[] }) {
  if (organizations.length === 0) return <Text>No organizations found.</Text>;
  return (
    <DataTable
      label="Recent certificate changes per organization"
      columns={COLUMNS}
      rows={organizations}
      rowKey={(o) => o.organization_id}
      minWidth={1000}
      alignTop
      fixedLayout
    />
  );
}
