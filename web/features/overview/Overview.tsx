/**
 * The overview's body, shared by an organization's and the admin one (issue 12 item 6): what needs
 * attention first (waiting tasks, what expires soon), then the counts by status, the expiries of
 * the next twelve months and the latest journal records. Each count links to the list that shows
 * those rows, filtered so, where the viewer has such a list.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { Overview as OverviewData } from '../../../common/schemas/overview';
import { formatDateTime } from '../../../common/dates';
import { STATUS_FILTER_LABELS, type CertificateStatusFilter, type LicenseStatusFilter } from '../../../common/status-filters';
import { Loading } from '../../components/Loading';
import { LatestRecords } from './LatestRecords';
import { expirySummary, monthLabel } from './months';

// The chart library (recharts) is loaded with the chart, after the counts are on screen.
const ExpiryChart = lazy(() => import('./ExpiryChart'));

/** Where a count leads: a list with a query (`status=approved`), or nowhere for this viewer (null). */
export interface OverviewLinks {
  certificates: ((query: string) => string) | null;
  licenses: ((query: string) => string) | null;
  /** Where the waiting approvals of a kind are listed, or null. */
  approvals: (list: 'certificates' | 'licenses') => string | null;
  /** Where the waiting acknowledgements are listed (the pending tasks), or null. */
  acknowledgements: string | null;
  /** An organization's journal. */
  journal: (organizationId: string) => string;
}

const number = new Intl.NumberFormat('en-US');
const CERTIFICATES: [string, string] = ['certificate', 'certificates'];
const LICENSES: [string, string] = ['license', 'licenses'];

/** A count with its words (`[one, many]` for a noun), linked when there is a place to go. */
function Count({ value, label, to }: { value: number; label: string | [string, string]; to?: string | null }) {
  const text = (
    <>
      <Text span fw={700} size="lg">
        {number.format(value)}
      </Text>{' '}
      <Text span size="sm">
        {typeof label === 'string' ? label : label[value === 1 ? 0 : 1]}
      </Text>
    </>
  );
  return <div>{to ? <Anchor component={Link} to={to}>{text}</Anchor> : text}</div>;
}

function Section({ id, title, children, description }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby={id}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {description ? (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        ) : null}
        {children}
      </Stack>
    </Card>
  );
}

const link = (to: ((query: string) => string) | null, query: string) => (to ? to(query) : null);

export function Overview({ data, links, organizationNames }: { data: OverviewData; links: OverviewLinks; organizationNames: boolean }) {
  const { certificates: c, licenses: l, pending: p } = data;
  const approvals = p.certificate_approvals + p.license_approvals;
  const acknowledgements = p.certificate_acknowledgements + p.license_acknowledgements;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        As of {formatDateTime(data.date_generated)}
        {data.organizations > 1 ? `, across ${number.format(data.organizations)} organizations` : ''}.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <Section id="overview-approvals" title="Waiting for approval" description={approvals === 0 ? 'Nothing waits for an approval.' : undefined}>
          <Count value={p.certificate_approvals} label={CERTIFICATES} to={links.approvals('certificates')} />
          <Count value={p.license_approvals} label={LICENSES} to={links.approvals('licenses')} />
        </Section>
        <Section
          id="overview-acknowledgements"
          title="Expired, not acknowledged"
          description={acknowledgements === 0 ? 'No expiry waits for an acknowledgement.' : 'Acknowledge the expiry, or renew the license.'}
        >
          <Count value={p.certificate_acknowledgements} label={CERTIFICATES} to={links.acknowledgements} />
          <Count value={p.license_acknowledgements} label={LICENSES} to={links.acknowledgements} />
        </Section>
        <Section id="overview-expiring" title="Expiring soon" description="Approved certificates and valid licenses that end within">
          <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing="xs" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Days</Table.Th>
                <Table.Th scope="col" ta="right">Certificates</Table.Th>
                <Table.Th scope="col" ta="right">Licenses</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.expiring.map((e) => (
                <Table.Tr key={e.days}>
                  <Table.Th scope="row" fw={500}>{e.days} days</Table.Th>
                  <Table.Td ta="right"><Linked value={e.certificates} to={link(links.certificates, `status=approved&expiringWithin=${e.days}`)} label={`Certificates expiring within ${e.days} days`} /></Table.Td>
                  <Table.Td ta="right"><Linked value={e.licenses} to={link(links.licenses, `status=valid&expiringWithin=${e.days}`)} label={`Licenses expiring within ${e.days} days`} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Section id="overview-certificates" title={`Certificates (${number.format(c.total)})`}>
          <StatusCounts
            to={links.certificates}
            rows={[
              ['approved', c.approved], ['not_approved', c.not_approved], ['revoked', c.revoked],
              ['valid', c.valid], ['expired', c.expired], ['acknowledged', c.expiry_acknowledged],
            ]}
          />
        </Section>
        <Section id="overview-licenses" title={`Licenses (${number.format(l.total)})`}>
          <StatusCounts
            to={links.licenses}
            rows={[
              ['not_approved', l.not_approved], ['approved', l.approved, 'Approved, not yet valid'], ['valid', l.valid],
              ['rejected', l.rejected], ['expired', l.expired], ['extension_requested', l.extension_requested],
              ['acknowledged', l.expiry_acknowledged],
            ]}
          />
        </Section>
      </SimpleGrid>
      <Section id="overview-chart" title="Expiries in the next 12 months" description={expirySummary(data.expiries_by_month)}>
        <Suspense fallback={<Loading label="Loading the chart…" />}>
          <ExpiryChart months={data.expiries_by_month} />
        </Suspense>
        <details>
          <summary>
            <Text span size="sm">The numbers per month</Text>
          </summary>
          <Table fz="sm" verticalSpacing={2} mt="xs" maw={420}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Month</Table.Th>
                <Table.Th scope="col" ta="right">Certificates</Table.Th>
                <Table.Th scope="col" ta="right">Licenses</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.expiries_by_month.map((m) => (
                <Table.Tr key={m.month}>
                  <Table.Th scope="row" fw={500}>{monthLabel(m.month)}</Table.Th>
                  <Table.Td ta="right">{number.format(m.certificates)}</Table.Td>
                  <Table.Td ta="right">{number.format(m.licenses)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </details>
      </Section>
      <LatestRecords journal={data.journal} organizationNames={organizationNames} journalPath={links.journal} />
    </Stack>
  );
}

/** A number in a table cell, a link with its full meaning as its name when there is a list to go to. */
function Linked({ value, to, label }: { value: number; to: string | null; label: string }) {
  if (!to) return <>{number.format(value)}</>;
  return (
    <Anchor component={Link} to={to} aria-label={`${label}: ${number.format(value)}`}>
      {number.format(value)}
    </Anchor>
  );
}

type StatusFilter = CertificateStatusFilter | LicenseStatusFilter;

/**
 * Counts by status chip, each opening the list with that chip: named as the chips are
 * (common/status-filters.ts), or by `label` where the overview says more.
 */
function StatusCounts({ rows, to }: { rows: Array<[status: StatusFilter, value: number, label?: string]>; to: ((query: string) => string) | null }) {
  return (
    <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="sm" verticalSpacing="xs">
      {rows.map(([status, value, label]) => (
        <Count key={status} value={value} label={label ?? STATUS_FILTER_LABELS[status]} to={link(to, `status=${status}`)} />
      ))}
    </SimpleGrid>
  );
}
