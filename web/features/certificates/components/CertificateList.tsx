/**
 * The certificate list of an organization, or across the caller's organizations for the admin
 * area (SPEC.md §2): a DN filter, three hide toggles, one page of rows with their badges, paging.
 * The filters and the page live in the URL query.
 */
import { Link } from 'react-router';
import { Anchor, Stack } from '@mantine/core';
import type { CertificateSummary } from '../../../../common/schemas/certificate';
import { formatDate } from '../../../../common/dates';
import { earliest, nextCertificateChange } from '../../../../common/status';
import { CardField, CardList, ListCard } from '../../../components/CardList';
import { CertificateBadges } from '../../../components/CertificateBadges';
import { DataTable } from '../../../components/DataTable';
import { PagedList } from '../../../components/PagedList';

import { StatusListFilters } from '../../../components/StatusListFilters';
import { useStatusListSearch } from '../../../components/useListSearch';
import { usePhone } from '../../../components/usePhone';
import { certificateDetailsPath } from '../../../lib/navigation';
import { useStatusClock } from '../../../lib/status-clock';
import { useCertificates } from '../api/get-certificates';
import { CERTIFICATE_PAGE_SIZE } from '../api/prefetch-certificates';
import { DistinguishedName } from './DistinguishedName';

const PAGE_SIZE = CERTIFICATE_PAGE_SIZE;

export interface CertificateListProps {
  /** The organization whose certificates are listed; null for the admin list across organizations. */
  organizationId: string | null;
  /** The admin variant shows each row's organization. */
  showOrganization?: boolean;
}

const detailsLink = (certificate: CertificateSummary) => (
  <Anchor
    component={Link}
    to={certificateDetailsPath(certificate.organization_id, certificate.distinguished_name)}
    fw={600}
    className="break-anywhere"
  >
    <DistinguishedName dn={certificate.distinguished_name} />
  </Anchor>
);

const ownerName = (certificate: CertificateSummary) => certificate.owner?.name ?? '-';

interface RowsProps {
  certificates: CertificateSummary[];
  showOrganization: boolean;
  now: Date;
}

function CertificateTable({ certificates, showOrganization, now }: RowsProps) {
  return (
    <DataTable label="Certificates" minWidth={showOrganization ? 980 : 840}>
      <thead>
        <tr>
          {showOrganization ? <th scope="col">Organization</th> : null}
          <th scope="col" style={{ width: '40%' }}>
            Distinguished Name
          </th>
          <th scope="col">Description</th>
          <th scope="col">Owner</th>
          <th scope="col">Valid From</th>
          <th scope="col">Until</th>
        </tr>
      </thead>
      <tbody>
        {certificates.map((certificate) => (
          <tr key={certificate.distinguished_name}>
            {showOrganization ? <td className="break-anywhere">{certificate.organization_name}</td> : null}
            <td>
              <Stack gap={6} align="flex-start">
                {detailsLink(certificate)}
                <CertificateBadges certificate={certificate} now={now} />
              </Stack>
            </td>
            <td className="break-anywhere">{certificate.description || '-'}</td>
            <td>{ownerName(certificate)}</td>
            <td style={{ whiteSpace: 'nowrap' }}>{formatDate(certificate.date_not_before)}</td>
            <td style={{ whiteSpace: 'nowrap' }}>{formatDate(certificate.date_not_after)}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/** Phones: one card per certificate instead of a table wider than the screen. */
function CertificateCards({ certificates, showOrganization, now }: RowsProps) {
  return (
    <CardList label="Certificates">
      {certificates.map((certificate) => (
        <ListCard key={certificate.distinguished_name}>
          <Stack gap={8}>
            {detailsLink(certificate)}
            <CertificateBadges certificate={certificate} now={now} />
            {showOrganization ? <CardField label="Organization">{certificate.organization_name}</CardField> : null}
            {certificate.description ? <CardField label="Description">{certificate.description}</CardField> : null}
            <CardField label="Owner">{ownerName(certificate)}</CardField>
            <CardField label="Valid">
              {formatDate(certificate.date_not_before)} – {formatDate(certificate.date_not_after)}
            </CardField>
          </Stack>
        </ListCard>
      ))}
    </CardList>
  );
}

export function CertificateList({ organizationId, showOrganization = false }: CertificateListProps) {
  const search = useStatusListSearch(PAGE_SIZE);
  const { page, request, setPage } = search;
  const certificates = useCertificates(organizationId, request);
  const phone = usePhone();
  const now = useStatusClock((t) => earliest((certificates.data?.items ?? []).map((c) => nextCertificateChange(c, t))));
  const Rows = phone ? CertificateCards : CertificateTable;

  return (
    <Stack gap="lg">
      <StatusListFilters label="Filter by DN" formLabel="Filter certificates" placeholder="e.g. CN=gw-berlin" search={search} />
      <PagedList query={certificates} noun="certificates" page={page} pageSize={PAGE_SIZE} onPage={setPage}>
        {(items) => <Rows certificates={items} showOrganization={showOrganization} now={now} />}
      </PagedList>
    </Stack>
  );
}
