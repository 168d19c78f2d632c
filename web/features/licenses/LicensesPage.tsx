/** Licenses of an organization (SPEC.md §2 "/licenses"). */
import { IconPlus } from '@tabler/icons-react';
import { ButtonLink } from '../../components/Link';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { useAllowedHere } from '../../lib/actor';
import { LicenseList } from './components/LicenseList';
import { requestLicensePath } from './paths';

export default function LicensesPage() {
  const { orgId, organization } = useRouteOrganization();
  const mayRequest = useAllowedHere('license.request');
  return (
    <Page
      title="Licenses"
      subtitle={organization?.organization_name ?? '…'}
      actions={
        mayRequest ? (
          <ButtonLink to={requestLicensePath(orgId)} leftSection={<IconPlus size={16} aria-hidden />}>
            Request license
          </ButtonLink>
        ) : null
      }
    >
      <LicenseList organizationId={orgId} />
    </Page>
  );
}
