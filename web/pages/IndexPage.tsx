/** The index page (SPEC.md §2): Certificates of the selected organization, or a request to select one. */
import { Navigate, useParams } from 'react-router';
import { Text } from '@mantine/core';
import { Page } from '../components/Page';
import { organizationPath } from '../lib/navigation';
import { useCurrentOrganization } from '../lib/session';

export default function IndexPage() {
  const { orgId } = useParams();
  const current = useCurrentOrganization();
  const id = orgId ?? current?.organization_id;
  if (id) return <Navigate to={organizationPath(id)} replace />;
  return (
    <Page title="One moment, select an organization" documentTitle="Select an organization">
      <Text>Choose an organization in the sidebar to see its certificates, licenses, members and resources.</Text>
    </Page>
  );
}
