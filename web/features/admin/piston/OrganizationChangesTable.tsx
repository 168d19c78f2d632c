/**
 * Per organization: pending certificate approvals and the latest certificate of each event.
 * A table on wider screens, one card per organization on phones.
 */
import { Box, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { formatDateTime } from '../../../../common/dates';
import { CardList, ListCard } from '../../../components/CardList';
import { scrollRegion } from '../../../components/scroll-region';
import { usePhone } from '../../../components/usePhone';
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

function ChangesTable({ organizations }: { organizations: OrganizationStatistics[] }) {
  return (
    <Table.ScrollContainer minWidth={1000} scrollAreaProps={scrollRegion('Certificate changes')}>
      <Table striped verticalSpacing="sm" layout="fixed" aria-label="Recent certificate changes per organization">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w={140}>
              Organization
            </Table.Th>
            <Table.Th scope="col" w={90} ta="right">
              Pending approvals
            </Table.Th>
            {EVENTS.map((event) => (
              <Table.Th scope="col" key={event}>
                {EVENT_LABELS[event]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {organizations.map((organization) => (
            <Table.Tr key={organization.organization_id} style={{ verticalAlign: 'top' }}>
              <Table.Th scope="row" fw={600} className="break-anywhere">
                {organization.organization_name}
              </Table.Th>
              <Table.Td ta="right">{organization.cert_unapproved}</Table.Td>
              {EVENTS.map((event) => (
                <Table.Td key={event}>
                  <Latest latest={organization.latest[event]} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ChangesCards({ organizations }: { organizations: OrganizationStatistics[] }) {
  return (
    <CardList label="Recent certificate changes per organization">
      {organizations.map((organization) => (
        <ListCard key={organization.organization_id}>
          <Stack gap="xs">
            <Title order={3} size="h5" className="break-anywhere">
              {organization.organization_name}
            </Title>
            <Text size="sm">Pending approvals: {organization.cert_unapproved}</Text>
            <SimpleGrid cols={1} spacing="xs" component="dl" m={0}>
              {EVENTS.map((event) => (
                <div key={event}>
                  <Text component="dt" size="sm" fw={600}>
                    {EVENT_LABELS[event]}
                  </Text>
                  <Box component="dd" m={0}>
                    <Latest latest={organization.latest[event]} />
                  </Box>
                </div>
              ))}
            </SimpleGrid>
          </Stack>
        </ListCard>
      ))}
    </CardList>
  );
}

export function OrganizationChangesTable({ organizations }: { organizations: OrganizationStatistics[] }) {
  const phone = usePhone();
  if (organizations.length === 0) return <Text>No organizations found.</Text>;
  return phone ? <ChangesCards organizations={organizations} /> : <ChangesTable organizations={organizations} />;
}
