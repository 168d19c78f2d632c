/**
 * Admin: Piston Resources (SPEC.md §2): the routes file and the certificate archive the download
 * gateway pulls, with their ETags; the latest change; valid and expired messages; and recent
 * certificate changes per organization with the count of pending approvals.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCertificate, IconClockHour4, IconHourglassLow, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDateTime, formatDuration } from '../../../../common/dates';
import type { PistonStatistics } from '../../../../common/schemas/piston';
import { Loading } from '../../../components/Loading';
import { Page } from '../../../components/Page';
import { usePistonStatistics } from './api/get-piston-statistics';
import { DownloadCard } from './DownloadCard';
import { OrganizationChangesTable } from './OrganizationChangesTable';
import { EVENT_NOUNS, latestOf, organizationsWithValid, pendingApprovals, type LatestOf } from './summary';

/** Re-render now and then so "N minutes ago" stays true while the page is open. */
function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const when = (latest: LatestOf, now: number) =>
  `${formatDateTime(latest.date_modified)} (${formatDuration(now - new Date(latest.date_modified).getTime())} ago)`;

function Fact({ icon, color, children }: { icon: ReactNode; color: string; children: ReactNode }) {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <ThemeIcon variant="light" color={color} size="md" radius="xl" aria-hidden>
        {icon}
      </ThemeIcon>
      <Text size="sm" className="break-anywhere" pt={3}>
        {children}
      </Text>
    </Group>
  );
}

function Summary({ statistics }: { statistics: PistonStatistics }) {
  const now = useNow();
  const latest = latestOf(statistics);
  const valid = latestOf(statistics, ['valid']);
  const expired = latestOf(statistics, ['expired']);
  const withValid = organizationsWithValid(statistics);
  const pending = pendingApprovals(statistics);

  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby="piston-summary">
      <Stack gap="sm">
        <Title order={2} size="h4" id="piston-summary">
          Certificates
        </Title>
        <Fact icon={<IconClockHour4 size={16} />} color="indigo">
          {latest ? (
            <>
              Latest change: <strong>{when(latest, now)}</strong>, {EVENT_NOUNS[latest.event]} of {latest.distinguished_name} (
              {latest.organization_name}).
            </>
          ) : (
            'No certificate changes yet.'
          )}
        </Fact>
        <Fact icon={<IconCertificate size={16} />} color="teal">
          {withValid === 0
            ? 'No organization has a currently valid certificate.'
            : `${withValid === 1 ? '1 organization has' : `${withValid} organizations have`} currently valid certificates`}
          {valid ? (
            <>
              ; the latest is {valid.distinguished_name} ({valid.organization_name}), valid since{' '}
              {formatDateTime(valid.date_modified)}.
            </>
          ) : null}
        </Fact>
        <Fact icon={<IconHourglassLow size={16} />} color="orange">
          {expired ? (
            <>
              Latest expired: {expired.distinguished_name} ({expired.organization_name}), on {when(expired, now)}.
            </>
          ) : (
            'No certificate has expired.'
          )}
        </Fact>
        <Text size="sm" c="dimmed">
          {pending === 0
            ? 'No certificate approvals are pending.'
            : `${pending === 1 ? '1 certificate approval is' : `${pending} certificate approvals are`} pending.`}
        </Text>
      </Stack>
    </Card>
  );
}

export default function PistonPage() {
  const { data, isPending, isError, refetch, isFetching } = usePistonStatistics();
  const refresh = () => void refetch();

  return (
    <Page
      title="Piston Resources"
      documentTitle="Piston Resources · Admin"
      subtitle="What the download gateway pulls, and recent certificate changes."
      actions={
        <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={refresh} loading={isFetching && !isPending}>
          Refresh
        </Button>
      }
    >
      {isPending ? (
        <Loading />
      ) : isError && !data ? (
        <Alert color="orange" variant="light">
          The statistics could not be loaded.
        </Alert>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <DownloadCard
              title="Routes file"
              description="One block per resource with the organizations allowed to use it."
              path="/api/piston/routes.hcl"
              fileName="routes.hcl"
              etag={data.routes.etag}
              onDownloaded={refresh}
            />
            <DownloadCard
              title="Certificates archive"
              description="The client certificates the gateway trusts, one PEM per file with a manifest."
              path="/api/piston/certs"
              fileName="certs.tar.gz"
              etag={data.certs.etag}
              onDownloaded={refresh}
            />
          </SimpleGrid>
          <Summary statistics={data} />
          {/* No region of its own: the table's scroll box is the region of that name already. */}
          <Stack gap="xs" component="section">
            <Title order={2} size="h4">
              Recent certificate changes per organization
            </Title>
            <OrganizationChangesTable organizations={data.organizations} />
          </Stack>
        </>
      )}
    </Page>
  );
}
