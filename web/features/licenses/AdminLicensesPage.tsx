/**
 * Admin: Licenses across the organizations where the caller has a role (SPEC.md §2 "Admin
 * routes"): the feature's own list with the organization column; rows open the
 * organization-scoped details. Here rather than in features/admin: features do not import each
 * other; the admin area only routes to it (web/router.tsx).
 */
import { Page } from '../../components/Page';
import { LicenseList } from './components/LicenseList';

export default function AdminLicensesPage() {
  return (
    <Page title="Licenses" documentTitle="Licenses · Admin" subtitle="Licenses across the organizations you manage.">
      <LicenseList organizationId={null} />
    </Page>
  );
}
