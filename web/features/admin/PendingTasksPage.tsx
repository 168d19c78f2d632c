/**
 * Admin: Pending Tasks (SPEC.md §2): the certificates and licenses waiting for an approval, and
 * the expired ones waiting for someone to acknowledge the expiry (or renew, for licenses). Each
 * row opens the organization-scoped details, where the task is done.
 */
import { Link } from 'react-router';
import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import type { CertificateSummary } from '../../../common/schemas/certificate';
import type { License } from '../../../common/schemas/license';
import { formatDate, formatDateTime, lastValidDay } from '../../../common/dates';
import { CardField, CardList, ListCard } from '../../components/CardList';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { usePhone } from '../../components/usePhone';
import { certificateDetailsPath, licenseDetailsPath } from '../../lib/navigation';
import { usePending, type PendingKind } from './pending/api/get-pending';

interface Task {
  key: string;
  kind: 'Certificate' | 'License';
  name: string;
  path: string;
  organization: string;
  from: string;
  until: string;
  created: string;
}

const certificateTask = (c: CertificateSummary): Task => ({
  key: `c:${c.organization_id}:${c.distinguished_name}`,
  kind: 'Certificate',
  name: c.distinguished_name,
  path: certificateDetailsPath(c.organization_id, c.distinguished_name),
  organization: c.organization_name,
  from: c.date_not_before,
  until: c.date_not_after,
  created: c.date_created,
});

const licenseTask = (l: License): Task => ({
  key: `l:${l.license_id}`,
  kind: 'License',
  name: l.license_name,
  path: licenseDetailsPath(l.organization_id, l.license_id),
  organization: l.organization_name,
  from: l.date_valid_from,
  // The last valid day, as every license screen shows it (date_valid_until is exclusive).
  until: lastValidDay(l.date_valid_until).toISOString(),
  created: l.date_created,
});

const NOWRAP = { whiteSpace: 'nowrap' } as const;

function KindBadge({ kind }: { kind: Task['kind'] }) {
  const license = kind === 'License';
  // The label is never cut to an ellipsis (a table column would squeeze it to "CE…").
  return (
    <Badge variant="light" size="sm" color={license ? 'indigo' : 'gray'} styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}>
      {kind}
    </Badge>
  );
}

const taskLink = (task: Task) => (
  <Anchor component={Link} to={task.path} fw={600} className="break-anywhere">
    {task.name}
  </Anchor>
);

/** Phones: one card per task instead of a table wider than the screen. */
function TaskCards({ tasks, label }: { tasks: Task[]; label: string }) {
  return (
    <CardList label={label}>
      {tasks.map((task) => (
        <ListCard key={task.key}>
          <Stack gap={8} align="flex-start">
            <KindBadge kind={task.kind} />
            {taskLink(task)}
            <CardField label="Organization">{task.organization}</CardField>
            <CardField label="Valid">
              {formatDate(task.from)} – {formatDate(task.until)}
            </CardField>
            <CardField label="Created">{formatDateTime(task.created)}</CardField>
          </Stack>
        </ListCard>
      ))}
    </CardList>
  );
}

function TaskTable({ tasks, label }: { tasks: Task[]; label: string }) {
  return (
    <Table.ScrollContainer minWidth={860} type="native">
      <Table striped highlightOnHover verticalSpacing="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col" w="40%">
              Name
            </Table.Th>
            <Table.Th scope="col">Organization</Table.Th>
            <Table.Th scope="col">Valid From</Table.Th>
            <Table.Th scope="col">Until</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tasks.map((task) => (
            <Table.Tr key={task.key}>
              <Table.Td style={NOWRAP}>
                <KindBadge kind={task.kind} />
              </Table.Td>
              <Table.Td>{taskLink(task)}</Table.Td>
              <Table.Td className="break-anywhere">{task.organization}</Table.Td>
              <Table.Td style={NOWRAP}>{formatDate(task.from)}</Table.Td>
              <Table.Td style={NOWRAP}>{formatDate(task.until)}</Table.Td>
              <Table.Td style={NOWRAP}>{formatDateTime(task.created)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface SectionProps {
  kind: PendingKind;
  id: string;
  title: string;
  description: string;
  empty: string;
}

function TaskSection({ kind, id, title, description, empty }: SectionProps) {
  const { data, isPending, isError } = usePending(kind);
  const phone = usePhone();
  const tasks = data ? [...data.certificates.map(certificateTask), ...data.licenses.map(licenseTask)] : [];

  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <div>
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </div>
      {isPending ? (
        <Loading />
      ) : isError && !data ? (
        <Text>The tasks could not be loaded.</Text>
      ) : tasks.length === 0 ? (
        <Text>{empty}</Text>
      ) : (
        <>
          {phone ? <TaskCards tasks={tasks} label={title} /> : <TaskTable tasks={tasks} label={title} />}
          <Text size="sm" c="dimmed">
            {data!.certificates.length} certificate{data!.certificates.length === 1 ? '' : 's'}, {data!.licenses.length} license
            {data!.licenses.length === 1 ? '' : 's'}
          </Text>
        </>
      )}
    </Stack>
  );
}

export default function PendingTasksPage() {
  return (
    <Page title="Pending Tasks" documentTitle="Pending Tasks · Admin">
      <TaskSection
        kind="approve"
        id="pending-approvals"
        title="Pending approvals"
        description="Certificates and license requests that wait for an approval, oldest first."
        empty="No pending approvals."
      />
      <TaskSection
        kind="acknowledge"
        id="expired-resources"
        title="Expired resources"
        description="Expired certificates and licenses whose expiry nobody has acknowledged yet (licenses: nor renewed)."
        empty="No expired resources."
      />
    </Page>
  );
}
