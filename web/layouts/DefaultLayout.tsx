/**
 * The default layout: header, sub-navbar and the organization sidebar (SPEC.md §2), with the
 * current organization kept in step with the URL.
 */
import { RequireAuth } from '../components/RequireAuth';
import { OrganizationSidebar } from './OrganizationSidebar';
import { SidebarShell } from './SidebarShell';
import { SubNavbar } from './SubNavbar';
import { useOrganizationFromPath } from './useOrganizationFromPath';

function DefaultShell() {
  useOrganizationFromPath();
  return (
    <SidebarShell label="Organization sidebar" id="organization-sidebar" width={280} sidebar={<OrganizationSidebar />} top={<SubNavbar />} />
  );
}

export default function DefaultLayout() {
  return (
    <RequireAuth>
      <DefaultShell />
    </RequireAuth>
  );
}
