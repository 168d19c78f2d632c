/**
 * The Certificates tab: the certificates the member owns, with the badges of SPEC.md §2
 * (Approved / Revoked / Not approved, Valid / Not valid, Expiry acknowledged), each linking to
 * the certificate's details.
 */
import { Link } from 'react-router';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import type { CertificateSummary } from '../../../../common/schemas/certificate';
import { CERTIFICATE_SORTS } from '../../../../common/sorts';
import { formatDate } from '../../../../common/dates';
import { earliest, nextCertificateChange } from '../../../../common/status';
import { CertificateBadges } from '../../../components/CertificateBadges';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { ExportCsvButton } from '../../../components/ExportCsvButton';
import { QueryList } from '../../../components/QueryList';
import { useListSort } from '../../../components/useListSearch';
import { certificateDetailsPath } from '../../../lib/navigation';
import { useStatusClock } from '../../../lib/status-clock';
import { useMemberCertificates } from '../api/get-member-certificates';
import { memberPath, type MemberRef } from '../api/keys';

/** The columns; the badges read the clock, so they are made again at each change of it. */
const columnsOf = (now: Date): DataColumn<CertificateSummary>[] => [
  {
    header: 'Distinguished Name',
    rowHeader: true,
    width: '420px',
    sort: 'distinguished_name',
    cell: (c) => (
      <Stack gap={6} align="flex-start">
        <Anchor component={Link} to={certificateDetailsPath(c.organization_id, c.distinguished_name)} className="break-anywhere" fw={600} size="sm">
          {c.distinguished_name}
        </Anchor>
        <CertificateBadges certificate={c} now={now} />
      </Stack>
    ),
  },
  { header: 'Description', breakAnywhere: true, cell: (c) => c.description || '-' },
  { header: 'Valid From', nowrap: true, sort: 'date_not_before', cell: (c) => formatDate(c.date_not_before) },
  { header: 'Until', nowrap: true, sort: 'date_not_after', cell: (c) => formatDate(c.date_not_after) },
];

export function CertificatesTab({ member }: { member: MemberRef }) {
  // The order in the URL's query beside the tab's hash (?sort=date_not_after#certificates).
  const { sort, order, setSort } = useListSort(CERTIFICATE_SORTS, 'distinguished_name');
  const certificates = useMemberCertificates(member, sort);
  const now = useStatusClock((t) => earliest((certificates.data?.items ?? []).map((c) => nextCertificateChange(c, t))));

  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <ExportCsvButton path={`${memberPath(member.organizationId, member.memberId)}/certificates`} request={{ sort }} name="certificates" />
      </Group>
      <QueryList query={certificates} noun="certificates">
        {({ items, total }) => (
          <>
            <DataTable label="Certificates" columns={columnsOf(now)} rows={items} rowKey={(c) => c.distinguished_name} minWidth={0} sort={{ order, onSort: setSort }} />
            {total > items.length ? (
              <Text size="sm" c="dimmed">
                Showing {items.length} of {total} certificates.
              </Text>
            ) : null}
          </>
        )}
      </QueryList>
    </Stack>
  );
}
