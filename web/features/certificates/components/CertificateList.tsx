/**
 * The certificate list of an organization, or across the caller's organizations for the admin
 * area (SPEC.md §2): a DN filter, three hide toggles, one page of rows with their badges, paging,
 * sorted by a column's header. The filters, the order and the page live in the URL query.
 */
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Anchor, Stack } from '@mantine/core';
import type { CertificateSummary } from '../../../../common/schemas/certificate';
import { CERTIFICATE_SORTS } from '../../../../common/sorts';
import { formatDate } from '../../../../common/dates';
import { earliest, nextCertificateChange } from '../../../../common/status';
import { CertificateBadges } from '../../../components/CertificateBadges';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { ExportCsvButton } from '../../../components/ExportCsvButton';
import { PagedList } from '../../../components/PagedList';
import { StatusListFilters } from '../../../components/StatusListFilters';
import { useListSort, useStatusListSearch } from '../../../components/useListSearch';
import { certificateDetailsPath } from '../../../lib/navigation';
import { usePageSize } from '../../../lib/preferences';
import { useStatusClock } from '../../../lib/status-clock';
import { useCertificates } from '../api/get-certificates';
import { organizationCertificatesPath } from '../api/keys';
import { DistinguishedName } from './DistinguishedName';
import { BulkActions } from '../../../components/bulk/BulkActions';
import { useCertificateBulk } from './useCertificateBulk';

export interface CertificateListProps {
  /** The organization whose certificates are listed; null for the admin list across organizations. */
  organizationId: string | null;
  /** The admin variant shows each row's organization. */
  showOrganization?: boolean;
}

/** The row's name: the DN, with the certificate's badges under it. */
const detailsLink = (certificate: CertificateSummary, now: Date) => (
  <Stack gap={6} align="flex-start">
    <Anchor
      component={Link}
      to={certificateDetailsPath(certificate.organization_id, certificate.distinguished_name)}
      fw={600}
      className="break-anywhere"
    >
      <DistinguishedName dn={certificate.distinguished_name} />
    </Anchor>
    <CertificateBadges certificate={certificate} now={now} />
  </Stack>
);

const ownerName = (certificate: CertificateSummary) => certificate.owner?.name ?? '-';

/** The columns; the DN's badges read the clock, so they are made again at each change of it. */
const columnsOf = (now: Date, showOrganization: boolean): DataColumn<CertificateSummary>[] => [
  ...(showOrganization ? [{ header: 'Organization', breakAnywhere: true, sort: 'organization_name', cell: (c: CertificateSummary) => c.organization_name }] : []),
  { header: 'Distinguished Name', rowHeader: true, width: '40%', sort: 'distinguished_name', cell: (c) => detailsLink(c, now) },
  { header: 'Description', breakAnywhere: true, cell: (c) => c.description || '-' },
  { header: 'Owner', cell: ownerName },
  { header: 'Valid From', nowrap: true, sort: 'date_not_before', cell: (c) => formatDate(c.date_not_before) },
  { header: 'Until', nowrap: true, sort: 'date_not_after', cell: (c) => formatDate(c.date_not_after) },
];

export function CertificateList({ organizationId, showOrganization = false }: CertificateListProps) {
  const [pageSize] = usePageSize();
  const search = useStatusListSearch(pageSize, CERTIFICATE_SORTS, 'certificates');
  const { page, request, setPage } = search;
  // The server's usual order: one organization's by name, the admin list by organization, then name.
  const { order, setSort } = useListSort(CERTIFICATE_SORTS, organizationId ? 'distinguished_name' : 'organization_name');
  const certificates = useCertificates(organizationId, request);
  const now = useStatusClock((t) => earliest((certificates.data?.items ?? []).map((c) => nextCertificateChange(c, t))));
  const columns = useMemo(() => columnsOf(now, showOrganization), [now, showOrganization]);
  const bulk = useCertificateBulk(organizationId, request, certificates.data?.total ?? 0, certificates.data?.items ?? [], now, certificates.isPlaceholderData);

  return (
    <Stack gap="lg">
      <StatusListFilters label="Filter by DN" formLabel="Filter certificates" placeholder="e.g. CN=gw-berlin" search={search} actions={<ExportCsvButton path={organizationId ? organizationCertificatesPath(organizationId) : '/api/certificates'} request={request} name="certificates" />} />
      {bulk.selectable ? <BulkActions {...bulk.bar} /> : null}
      <PagedList query={certificates} noun="certificates" page={page} pageSize={pageSize} onPage={setPage}>
        {(items) => (
          <DataTable
            label="Certificates"
            columns={columns}
            rows={items}
            rowKey={(c) => c.distinguished_name}
            minWidth={showOrganization ? 980 : 840}
            sort={{ order, onSort: setSort }}
            selection={bulk.selectable ? bulk.table : undefined}
          />
        )}
      </PagedList>
    </Stack>
  );
}
