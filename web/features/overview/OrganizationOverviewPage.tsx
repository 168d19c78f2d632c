/**
 * /organizations/:orgId/overview (issue 12 item 6): what needs attention in the organization, the
 * first link of its sidebar. Sign-in still lands on Certificates (SPEC.md §2).
 */
import { Text } from '@mantine/core';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { organizationPath } from '../../lib/navigation';
import { useOrganizationOverview } from './api/get-organization-overview';
import { Overview, type OverviewLinks } from './Overview';

export default function OrganizationOverviewPage() {
  const { orgId, organization } = useRouteOrganization();
  const overview = useOrganizationOverview(orgId);
  const list = (section: 'certificates' | 'licenses') => (query: string) => `${organizationPath(orgId, section)}?${query}`;
  // This organization's own lists: the pending tasks screen holds every organization's.
  const links: OverviewLinks = {
    certificates: list('certificates'),
    licenses: list('licenses'),
    approvals: (kind) => list(kind)('status=not_approved'),
    acknowledgements: null,
    journal: (id) => organizationPath(id, 'auditrecords'),
  };
  return (
    <Page title="Overview" subtitle={organization ? `What needs attention in ${organization.organization_name}.` : '…'}>
      {overview.isPending ? <Loading /> : null}
      {overview.isError && !overview.data ? <Text>The overview could not be loaded.</Text> : null}
      {overview.data ? <Overview data={overview.data} links={links} organizationNames={false} /> : null}
    </Page>
  );
}
