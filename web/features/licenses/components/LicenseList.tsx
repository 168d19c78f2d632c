/**
 * The license list of an organization, or across the caller's organizations for the admin area
 * (SPEC.md §2 "/licenses"): a name filter, three hide toggles, one page of rows with their badges,
 * paging. The filters and the page live in the URL query.
 */
import { Link } from 'react-router';
import { Anchor, Stack, Table } from '@mantine/core';
import type { License } from '../../../../common/schemas/license';
import { formatDate, formatDaysLeft, lastValidDay } from '../../../../common/dates';
import { earliest, licenseStatus, nextLicenseChange } from '../../../../common/status';
import { CardField, CardList, ListCard } from '../../../components/CardList';
import { PagedList } from '../../../components/PagedList';
import { StatusListFilters } from '../../../components/StatusListFilters';
import { useStatusListSearch } from '../../../components/useListSearch';
import { usePhone } from '../../../components/usePhone';
import { licenseDetailsPath } from '../../../lib/navigation';
import { useStatusClock } from '../../../lib/status-clock';
import { useLicenses } from '../api/get-licenses';
import { LicenseBadges } from './LicenseBadges';

const PAGE_SIZE = 100;

export interface LicenseListProps {
  /** The organization whose licenses are listed; null for the admin list across organizations. */
  organizationId: string | null;
}

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** Days Left only while the license is Valid (SPEC.md §2), else a dash. */
const daysLeftText = (license: License, now: Date) => {
  const status = licenseStatus(license, now);
  return status.valid ? formatDaysLeft(status.days_left) : '-';
};

interface RowsProps {
  licenses: License[];
  showOrganization: boolean;
  now: Date;
}

const detailsLink = (license: License) => (
  <Anchor component={Link} to={licenseDetailsPath(license.organization_id, license.license_id)} fw={600} className="break-anywhere">
    {license.license_name}
  </Anchor>
);

function LicenseTable({ licenses, showOrganization, now }: RowsProps) {
  return (
    <Table.ScrollContainer minWidth={showOrganization ? 960 : 820} type="native">
      <Table striped highlightOnHover verticalSpacing="sm" aria-label="Licenses">
        <Table.Thead>
          <Table.Tr>
            {showOrganization ? <Table.Th scope="col">Organization</Table.Th> : null}
            <Table.Th scope="col" w="36%">
              License Name
            </Table.Th>
            <Table.Th scope="col">Scope</Table.Th>
            <Table.Th scope="col">Valid From</Table.Th>
            <Table.Th scope="col">Until</Table.Th>
            <Table.Th scope="col">Days Left</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {licenses.map((license) => (
            <Table.Tr key={license.license_id}>
              {showOrganization ? <Table.Td className="break-anywhere">{license.organization_name}</Table.Td> : null}
              <Table.Td>
                <Stack gap={6} align="flex-start">
                  {detailsLink(license)}
                  <LicenseBadges license={license} now={now} />
                </Stack>
              </Table.Td>
              <Table.Td>{license.license_scope.toLowerCase()}</Table.Td>
              <Table.Td style={NOWRAP}>{formatDate(license.date_valid_from)}</Table.Td>
              {/* Until: the last valid day (date_valid_until is exclusive), docs/decisions.md "Licenses". */}
              <Table.Td style={NOWRAP}>{formatDate(lastValidDay(license.date_valid_until))}</Table.Td>
              <Table.Td style={NOWRAP}>{daysLeftText(license, now)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones: one card per license instead of a table wider than the screen. */
function LicenseCards({ licenses, showOrganization, now }: RowsProps) {
  return (
    <CardList label="Licenses">
      {licenses.map((license) => (
        <ListCard key={license.license_id}>
          <Stack gap={8}>
            {detailsLink(license)}
            <LicenseBadges license={license} now={now} />
            {showOrganization ? <CardField label="Organization">{license.organization_name}</CardField> : null}
            <CardField label="Scope">{license.license_scope.toLowerCase()}</CardField>
            <CardField label="Valid">
              {formatDate(license.date_valid_from)} – {formatDate(lastValidDay(license.date_valid_until))}
            </CardField>
            <CardField label="Days left">{daysLeftText(license, now)}</CardField>
          </Stack>
        </ListCard>
      ))}
    </CardList>
  );
}

export function LicenseList({ organizationId }: LicenseListProps) {
  const search = useStatusListSearch(PAGE_SIZE);
  const { page, request, setPage } = search;
  const licenses = useLicenses(organizationId, request);
  const phone = usePhone();
  const now = useStatusClock((t) => earliest((licenses.data?.items ?? []).map((l) => nextLicenseChange(l, t))));
  const Rows = phone ? LicenseCards : LicenseTable;

  return (
    <Stack gap="lg">
      <StatusListFilters label="Filter by name" formLabel="Filter licenses" placeholder="License name" search={search} />
      <PagedList query={licenses} noun="licenses" page={page} pageSize={PAGE_SIZE} onPage={setPage}>
        {(items) => <Rows licenses={items} showOrganization={organizationId === null} now={now} />}
      </PagedList>
    </Stack>
  );
}
