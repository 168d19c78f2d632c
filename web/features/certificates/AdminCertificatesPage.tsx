/**
 * Admin: Certificates across the organizations where the caller has a role (SPEC.md §2 "Admin
 * routes"): the feature's own list with the organization column; rows open the
 * organization-scoped details. Here rather than in features/admin: features do not import each
 * other; the admin area only routes to it (web/router.tsx).
 */
import { Page } from '../../components/Page';
import { CertificateList } from './components/CertificateList';

export default function AdminCertificatesPage() {
  return (
    <Page title="Certificates" documentTitle="Certificates · Admin" subtitle="Certificates across the organizations you manage.">
      <CertificateList organizationId={null} showOrganization />
    </Page>
  );
}
