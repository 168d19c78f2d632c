/**
 * Admin: Pending Tasks (SPEC.md §2): the certificates and licenses waiting for an approval, and
 * the expired ones waiting for someone to acknowledge the expiry (or renew, for licenses). Each
 * kind shows two lists, certificates and licenses, each with its true total in its heading and
 * paged on its own (the pages live in the URL). Each row opens the organization-scoped details,
 * where the task is done.
 */
import { useRef } from 'react';
import { Link } from 'react-router';
import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import type { CertificateSummary } from '../../../common/schemas/certificate';
import type { License } from '../../../common/schemas/license';
import { PENDING_CERTIFICATE_SORTS, PENDING_LICENSE_SORTS } from '../../../common/sorts';
import { formatDate, formatDateTime, formatFirstValidDay, formatLastValidDay } from '../../../common/dates';
import { DataTable, type DataColumn, type TableSort } from '../../components/DataTable';
import { ExportCsvButton } from '../../components/ExportCsvButton';
import { ListPaging } from '../../components/ListPaging';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { useListSort } from '../../components/useListSearch';
import { certificateDetailsPath, licenseDetailsPath } from '../../lib/navigation';
import { DistinguishedName } from '../certificates/components/DistinguishedName';
import { PENDING_PAGE_SIZE, usePending, type PendingKind } from './pending/api/get-pending';
import { pageKeyOf, sortKeyOf, usePendingPages, type PendingList } from './pending/usePendingPages';
import { BulkActions } from '../../components/bulk/BulkActions';
import { usePendingBulk, type BulkTask } from './pending/usePendingBulk';

interface Task extends BulkTask {
  key: string;
  name: string;
  path: string;
  organization: string;
  /** The first and the last valid day, as the lists of the kind show them. */
  from: string;
  until: string;
  created: string;
}

const certificateTask = (c: CertificateSummary): Task => ({
  key: c.distinguished_name,
  abilities: c.abilities,
  item: { organization_id: c.organization_id, distinguished_name: c.distinguished_name },
  name: c.distinguished_name,
  path: certificateDetailsPath(c.organization_id, c.distinguished_name),
  organization: c.organization_name,
  from: formatDate(c.date_not_before),
  until: formatDate(c.date_not_after),
  created: c.date_created,
});

const licenseTask = (l: License): Task => ({
  key: l.license_id,
  abilities: l.abilities,
  // The version shown: a license changed since is refused rather than decided unseen.
  item: { license_id: l.license_id, version: l.version },
  name: l.license_name,
  path: licenseDetailsPath(l.organization_id, l.license_id),
  organization: l.organization_name,
  from: formatFirstValidDay(l.date_valid_from),
  // The last valid day, as every license screen shows it (date_valid_until is exclusive).
  until: formatLastValidDay(l.date_valid_until),
  created: l.date_created,
});

/** Scrolled to, a heading stops below the fixed header (Mantine's AppShell sets the variable). */
const HEADING_SCROLL_MARGIN = { scrollMarginTop: 'calc(var(--app-shell-header-offset, 60px) + var(--mantine-spacing-md))' } as const;
const count = new Intl.NumberFormat('en-US');

// A DN breaks between its parts (DistinguishedName), as on the certificate list, not mid-word (issue 34).
const taskLink = (task: Task) => (
  <Anchor component={Link} to={task.path} fw={600} className="break-anywhere">
    {'distinguished_name' in task.item ? <DistinguishedName dn={task.name} /> : task.name}
  </Anchor>
);

/** The columns, with the fields of the list's sorts (the API's certificatesSort, licensesSort). */
const taskColumns = (fields: { name: string; from: string; until: string }): DataColumn<Task>[] => [
  { header: 'Name', rowHeader: true, width: '45%', sort: fields.name, cell: taskLink },
  { header: 'Organization', breakAnywhere: true, cell: (task) => task.organization },
  { header: 'Valid From', nowrap: true, sort: fields.from, cell: (task) => task.from },
  { header: 'Until', nowrap: true, sort: fields.until, cell: (task) => task.until },
  { header: 'Created', nowrap: true, sort: 'date_created', cell: (task) => formatDateTime(task.created) },
];
const TASK_COLUMNS: Record<PendingList, DataColumn<Task>[]> = {
  certificates: taskColumns({ name: 'distinguished_name', from: 'date_not_before', until: 'date_not_after' }),
  licenses: taskColumns({ name: 'license_name', from: 'date_valid_from', until: 'date_valid_until' }),
};

interface TaskListProps {
  id: string;
  kind: PendingKind;
  list: PendingList;
  title: 'Certificates' | 'Licenses';
  /** Plural, lower case, different for each list of the screen: "certificate approvals". */
  noun: string;
  tasks: Task[];
  total: number;
  page: number;
  onPage: (page: number) => void;
  sort: TableSort;
  empty: string;
  /** The list's CSV export (GET /api/approve/certificates.csv …) in the order shown. */
  exportCsv: { path: string; name: string };
}

/** One list of a kind: its heading with the true total, one page of rows, and its own paging. */
function TaskList({ id, kind, list, title, noun, tasks, total, page, onPage, sort, empty, exportCsv }: TaskListProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const label = noun.charAt(0).toUpperCase() + noun.slice(1);
  const bulk = usePendingBulk(kind, list, total, tasks);
  const turn = (next: number) => {
    onPage(next);
    // The new rows start at the heading; a pager under 100 rows would otherwise leave the reader at
    // their end. Only when the heading is out of view (under the header, or below the screen).
    const element = heading.current;
    if (!element) return;
    const top = element.getBoundingClientRect().top;
    if (top < parseFloat(getComputedStyle(element).scrollMarginTop) || top > window.innerHeight) element.scrollIntoView({ block: 'start' });
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby={id}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Title order={3} size="h4" id={id} ref={heading} style={HEADING_SCROLL_MARGIN}>
          {title} ({count.format(total)})
        </Title>
        {total > 0 ? <ExportCsvButton path={exportCsv.path} request={{ sort: sort.order }} name={exportCsv.name} list={noun} /> : null}
      </Group>
      {total === 0 ? (
        <Text>{empty}</Text>
      ) : (
        <>
          {bulk.selectable ? <BulkActions {...bulk.bar} /> : null}
          {tasks.length === 0 ? (
            <Text>No {noun} on this page.</Text>
          ) : (
            <DataTable label={label} columns={TASK_COLUMNS[list]} rows={tasks} rowKey={(task) => task.key} minWidth={820} sort={sort} selection={bulk.selectable ? bulk.table : undefined} />
          )}
          <ListPaging total={total} count={tasks.length} page={page} pageSize={PENDING_PAGE_SIZE} onPage={turn} noun={noun} />
        </>
      )}
    </Stack>
  );
}

interface SectionProps {
  kind: PendingKind;
  id: string;
  title: string;
  description: string;
  /** SPEC.md §2: shown when nothing of the kind waits (and under a list of it that is empty). */
  empty: string;
  nouns: Record<PendingList, string>;
}

function TaskSection({ kind, id, title, description, empty, nouns }: SectionProps) {
  const { pages, offsets, setPage } = usePendingPages(kind, PENDING_PAGE_SIZE);
  const { data, isPending, isError } = usePending(kind, offsets);
  // The usual orders: approvals by creation, acknowledgements by the end of validity (the longest expired first).
  const certificateOrder = useListSort(PENDING_CERTIFICATE_SORTS, kind === 'approve' ? 'date_created' : 'date_not_after', sortKeyOf(kind, 'certificates'), pageKeyOf(kind, 'certificates'));
  const licenseOrder = useListSort(PENDING_LICENSE_SORTS, kind === 'approve' ? 'date_created' : 'date_valid_until', sortKeyOf(kind, 'licenses'), pageKeyOf(kind, 'licenses'));

  return (
    <Stack gap="md" component="section" aria-labelledby={id}>
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
      ) : data!.certificates_total + data!.licenses_total === 0 ? (
        <Text>{empty}</Text>
      ) : (
        <>
          <TaskList
            id={`${id}-certificates`}
            kind={kind}
            list="certificates"
            title="Certificates"
            noun={nouns.certificates}
            tasks={data!.certificates.map(certificateTask)}
            total={data!.certificates_total}
            page={pages.certificates}
            onPage={(page) => setPage('certificates', page)}
            sort={{ order: certificateOrder.order, onSort: certificateOrder.setSort }}
            empty={empty}
            exportCsv={{ path: `/api/${kind}/certificates`, name: `pending-${nouns.certificates.replace(/ /g, '-')}` }}
          />
          <TaskList
            id={`${id}-licenses`}
            kind={kind}
            list="licenses"
            title="Licenses"
            noun={nouns.licenses}
            tasks={data!.licenses.map(licenseTask)}
            total={data!.licenses_total}
            page={pages.licenses}
            onPage={(page) => setPage('licenses', page)}
            sort={{ order: licenseOrder.order, onSort: licenseOrder.setSort }}
            empty={empty}
            exportCsv={{ path: `/api/${kind}/licenses`, name: `pending-${nouns.licenses.replace(/ /g, '-')}` }}
          />
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
        description="Certificates and license requests that wait for an approval, oldest request first."
        empty="No pending approvals."
        nouns={{ certificates: 'certificate approvals', licenses: 'license approvals' }}
      />
      <TaskSection
        kind="acknowledge"
        id="expired-resources"
        title="Expired resources"
        description="Expired certificates and licenses whose expiry nobody has acknowledged yet (licenses: nor renewed), the longest expired first."
        empty="No expired resources."
        nouns={{ certificates: 'expired certificates', licenses: 'expired licenses' }}
      />
    </Page>
  );
}
