/**
 * The default layout: header, sub-navbar and the organization sidebar (SPEC.md §2), with the
 * current organization kept in step with the URL; an organization that is not found (or not the
 * caller's) shows the not-found state instead of its page.
 */
import { useParams } from 'react-router';
import { NotFound } from '../components/NotFound';
import { SupportBanner } from '../features/support-access/SupportBanner';
import { RequireAuth } from '../components/RequireAuth';
import { PATHS } from '../lib/navigation';
import { OrganizationSidebar } from './OrganizationSidebar';
import { SidebarShell } from './SidebarShell';
import { SubNavbar } from './SubNavbar';
import { useOrganizationFromPath } from './useOrganizationFromPath';

function DefaultShell() {
  const { notFound } = useOrganizationFromPath();
  const { orgId } = useParams();
  return (
    <SidebarShell
      label="Organization sidebar"
      id="organization-sidebar"
      width={280}
      sidebar={<OrganizationSidebar />}
      top={
        <>
          <SubNavbar />
          {notFound ? null : <SupportBanner organizationId={orgId} />}
        </>
      }
      page={notFound ? <NotFound what="organization" back={{ to: PATHS.home, label: 'Back to Self-Service' }} /> : undefined}
    />
  );
}

export default function DefaultLayout() {
  return (
    <RequireAuth>
      <DefaultShell />
    </RequireAuth>
  );
}
