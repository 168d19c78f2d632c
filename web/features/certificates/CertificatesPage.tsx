/** Certificates of an organization (SPEC.md §2 "/certificates"). */
import { IconUpload } from '@tabler/icons-react';
import { ButtonLink } from '../../components/Link';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { useAllowedHere } from '../../lib/actor';
import { CertificateList } from './components/CertificateList';
import { uploadCertificatePath } from './paths';

export default function CertificatesPage() {
  const { orgId, organization } = useRouteOrganization();
  const mayUpload = useAllowedHere('certificate.upload');
  return (
    <Page
      title="Certificates"
      subtitle={organization?.organization_name ?? '…'}
      actions={
        mayUpload ? (
          <ButtonLink to={uploadCertificatePath(orgId)} leftSection={<IconUpload size={16} aria-hidden />}>
            Upload certificate
          </ButtonLink>
        ) : null
      }
    >
      <CertificateList organizationId={orgId} />
    </Page>
  );
}
