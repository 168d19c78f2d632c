/**
 * The Certificates tab: the certificates the member owns, with the badges of SPEC.md §2
 * (Approved / Revoked / Not approved, Valid / Not valid, Expiry acknowledged), each linking to
 * the certificate's details.
 */
import { Link } from 'react-router';
import { Anchor, Stack, Table, Text } from '@mantine/core';
import type { CertificateSummary } from '../../../../common/schemas/certificate';
import { formatDate } from '../../../../common/dates';
import { earliest, nextCertificateChange } from '../../../../common/status';
import { CertificateBadges } from '../../../components/CertificateBadges';
import { QueryList } from '../../../components/QueryList';
import { StackedTable } from '../../../components/StackedTable';
import { certificateDetailsPath } from '../../../lib/navigation';
import { useStatusClock } from '../../../lib/status-clock';
import { useMemberCertificates } from '../api/get-member-certificates';
import type { MemberRef } from '../api/keys';

function CertificateTable({ certificates, now }: { certificates: CertificateSummary[]; now: Date }) {
  return (
    <StackedTable striped verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Distinguished Name</Table.Th>
          <Table.Th scope="col">Description</Table.Th>
          <Table.Th scope="col">Valid From</Table.Th>
          <Table.Th scope="col">Until</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {certificates.map((certificate) => (
          <Table.Tr key={certificate.distinguished_name}>
            <Table.Td data-label="Distinguished Name" maw={420}>
              <Stack gap={6}>
                <Anchor component={Link} to={certificateDetailsPath(certificate.organization_id, certificate.distinguished_name)} className="break-anywhere" fw={600} size="sm">
                  {certificate.distinguished_name}
                </Anchor>
                <CertificateBadges certificate={certificate} now={now} />
              </Stack>
            </Table.Td>
            <Table.Td data-label="Description" className="break-anywhere">{certificate.description || '-'}</Table.Td>
            <Table.Td data-label="Valid From" style={{ whiteSpace: 'nowrap' }}>{formatDate(certificate.date_not_before)}</Table.Td>
            <Table.Td data-label="Until" style={{ whiteSpace: 'nowrap' }}>{formatDate(certificate.date_not_after)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </StackedTable>
  );
}

export function CertificatesTab({ member }: { member: MemberRef }) {
  const certificates = useMemberCertificates(member);
  const now = useStatusClock((t) => earliest((certificates.data?.items ?? []).map((c) => nextCertificateChange(c, t))));

  return (
    <QueryList query={certificates} noun="certificates">
      {({ items, total }) => (
        <>
          <CertificateTable certificates={items} now={now} />
          {total > items.length ? (
            <Text size="sm" c="dimmed">
              Showing {items.length} of {total} certificates.
            </Text>
          ) : null}
        </>
      )}
    </QueryList>
  );
}
