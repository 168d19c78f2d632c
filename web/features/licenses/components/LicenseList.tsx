/**
 * The license list of an organization, or across the caller's organizations for the admin area
 * (SPEC.md §2 "/licenses"): a name filter, three hide toggles, one page of rows with their badges,
 * paging, sorted by a column's header. The filters, the order and the page live in the URL query.
 */
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Anchor, Stack } from '@mantine/core';
import type { License } from '../../../../common/schemas/license';
import { LICENSE_SORTS } from '../../../../common/sorts';
import { formatDaysLeft, formatFirstValidDay, formatLastValidDay } from '../../../../common/dates';
import { earliest, licenseStatus, nextLicenseChange } from '../../../../common/status';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { PagedList } from '../../../components/PagedList';
import { ExportCsvButton } from '../../../components/ExportCsvButton';
import { StatusListFilters } from '../../../components/StatusListFilters';
import { useListSort, useStatusListSearch } from '../../../components/useListSearch';
import { licenseDetailsPath } from '../../../lib/navigation';
import { useStatusClock } from '../../../lib/status-clock';
import { useLicenses } from '../api/get-licenses';
import { organizationLicensesPath } from '../api/keys';
import { LicenseBadges } from './LicenseBadges';
import { BulkActions } from '../../../components/bulk/BulkActions';
import { useLicenseBulk } from './useLicenseBulk';
import { usePageSize } from '../../../lib/preferences';

export interface LicenseListProps {
  /** The organization whose licenses are listed; null for the admin list across organizations. */
  organizationId: string | null;
}

/** Days Left only while the license is Valid (SPEC.md §2), else a dash. */
const daysLeftText = (license: License, now: Date) => {
  const status = licenseStatus(license, now);
  return status.valid ? formatDaysLeft(status.days_left) : '-';
};

/** The row's name: the license name, with its badges under it. */
const detailsLink = (license: License, now: Date) => (
  <Stack gap={6} align="flex-start">
    <Anchor component={Link} to={licenseDetailsPath(license.organization_id, license.license_id)} fw={600} className="break-anywhere">
      {license.license_name}
    </Anchor>
    <LicenseBadges license={license} now={now} />
  </Stack>
);

/** The columns; the badges and days left read the clock, so they are made again at each change of it. */
const columnsOf = (now: Date, showOrganization: boolean): DataColumn<License>[] => [
  ...(showOrganization ? [{ header: 'Organization', breakAnywhere: true, sort: 'organization_name', cell: (l: License) => l.organization_name }] : []),
  { header: 'License Name', rowHeader: true, width: '36%', sort: 'license_name', cell: (l) => detailsLink(l, now) },
  { header: 'Scope', cell: (l) => l.license_scope.toLowerCase() },
  // The first and the last valid day (date_valid_until is exclusive), with the time where the window does not
  // start or end at the viewer's midnight, as the details show them (docs/decisions.md "Licenses").
  { header: 'Valid From', nowrap: true, sort: 'date_valid_from', cell: (l) => formatFirstValidDay(l.date_valid_from) },
  { header: 'Until', nowrap: true, sort: 'date_valid_until', cell: (l) => formatLastValidDay(l.date_valid_until) },
  { header: 'Days Left', nowrap: true, cell: (l) => daysLeftText(l, now) },
];

export function LicenseList({ organizationId }: LicenseListProps) {
  const [pageSize] = usePageSize();
  const search = useStatusListSearch(pageSize, LICENSE_SORTS, 'licenses');
  const { page, request, setPage } = search;
  // The server's usual order: one organization's by name, the admin list by organization, then name.
  const { order, setSort } = useListSort(LICENSE_SORTS, organizationId ? 'license_name' : 'organization_name');
  const licenses = useLicenses(organizationId, request);
  const now = useStatusClock((t) => earliest((licenses.data?.items ?? []).map((l) => nextLicenseChange(l, t))));
  const showOrganization = organizationId === null;
  const columns = useMemo(() => columnsOf(now, showOrganization), [now, showOrganization]);
  const bulk = useLicenseBulk(organizationId, request, licenses.data?.total ?? 0, licenses.data?.items ?? [], now, licenses.isPlaceholderData);

  return (
    <Stack gap="lg">
      <StatusListFilters label="Filter by name" formLabel="Filter licenses" placeholder="License name" search={search} actions={<ExportCsvButton path={organizationId ? organizationLicensesPath(organizationId) : '/api/licenses'} request={request} name="licenses" />} />
      {bulk.selectable ? <BulkActions {...bulk.bar} /> : null}
      <PagedList query={licenses} noun="licenses" page={page} pageSize={pageSize} onPage={setPage}>
        {(items) => (
          <DataTable
            label="Licenses"
            columns={columns}
            rows={items}
            rowKey={(l) => l.license_id}
            minWidth={showOrganization ? 960 : 820}
            sort={{ order, onSort: setSort }}
            selection={bulk.selectable ? bulk.table : undefined}
          />
        )}
      </PagedList>
    </Stack>
  );
}
