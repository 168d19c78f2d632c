/** /admin/access-review (issue 33): the access review of every organization the viewer may review. */
import { Page } from '../../components/Page';
import { AccessReviewList } from './AccessReviewList';

export default function AdminAccessReviewPage() {
  return (
    <Page title="Access review" subtitle="Who holds which role in the organizations you manage, since and until when, and who granted it.">
      <AccessReviewList organizationId={null} />
    </Page>
  );
}
