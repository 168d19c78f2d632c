/** /organizations/{id}/access-review (issue 33): the organization's access review, for those who may read it. */
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { AccessReviewList } from './AccessReviewList';

export default function AccessReviewPage() {
  const { orgId, organization } = useRouteOrganization();
  return (
    <Page title="Access review" subtitle={organization ? `Who holds which role in ${organization.organization_name} now, since and until when, and who granted it.` : '…'}>
      <AccessReviewList organizationId={orgId} />
    </Page>
  );
}
