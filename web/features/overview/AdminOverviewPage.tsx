/**
 * /admin/overview (issue 12 item 6): what needs attention across the organizations operator staff
 * read; each count leads to the admin screen that lists it, where the viewer has that screen.
 */
import { Text } from '@mantine/core';
import { SCREENS } from '../../../common/policy';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { useActor } from '../../lib/actor';
import { organizationPath } from '../../lib/navigation';
import { useAdminOverview } from './api/get-admin-overview';
import { Overview, type OverviewLinks } from './Overview';

export default function AdminOverviewPage() {
  const actor = useActor();
  const overview = useAdminOverview();
  const list = (screen: 'certificates' | 'licenses') => (SCREENS[screen](actor) ? (query: string) => `/admin/${screen}?${query}` : null);
  const pendingTasks = SCREENS.pendingTasks(actor) ? '/admin/pending-tasks' : null;
  const links: OverviewLinks = {
    certificates: list('certificates'),
    licenses: list('licenses'),
    approvals: (kind) => pendingTasks ?? list(kind)?.('status=not_approved') ?? null,
    acknowledgements: pendingTasks,
    journal: (id) => organizationPath(id, 'auditrecords'),
  };
  return (
    <Page title="Overview" subtitle="What needs attention in the organizations you manage.">
      {overview.isPending ? <Loading /> : null}
      {overview.isError && !overview.data ? <Text>The overview could not be loaded.</Text> : null}
      {overview.data ? <Overview data={overview.data} links={links} organizationNames /> : null}
    </Page>
  );
}
