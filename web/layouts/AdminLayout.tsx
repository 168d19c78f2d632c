/** The admin layout: header and the admin sidebar (SPEC.md §2), with the role-reload guard. */
import { RequireAuth } from '../components/RequireAuth';
import { AdminSidebar } from './AdminSidebar';
import { SidebarShell } from './SidebarShell';
import { useAdminRoleReload } from './useAdminRoleReload';

function AdminShell() {
  useAdminRoleReload();
  return <SidebarShell label="Admin sidebar" id="admin-sidebar" width={240} sidebar={<AdminSidebar />} />;
}

export default function AdminLayout() {
  return (
    <RequireAuth>
      <AdminShell />
    </RequireAuth>
  );
}
