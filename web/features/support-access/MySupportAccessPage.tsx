/**
 * The admin area's "Support Access" (issue 33 item 2): the vendor's supervisors and DevOps ask an organization for
 * access and follow their requests; an active one links to the organization, where the banner says they act under it.
 */
import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { organizationPath } from '../../lib/navigation';
import { notifySuccess } from '../../lib/notifications';
import { useMySupport, useRequestSupport } from './api';
import { RequestSupportForm } from './RequestSupportForm';
import { SupportRequestsTable } from './SupportRequestsTable';

export default function MySupportAccessPage() {
  const mine = useMySupport();
  const request = useRequestSupport();
  const subtitle = 'Ask a customer or partner for access to help them; they approve, and it ends by itself.';
  if (!mine.data) return <Page title="Support Access" subtitle={subtitle}><Loading /></Page>;
  const active = mine.data.items.filter((r) => r.state === 'APPROVED');
  return (
    <Page title="Support Access" subtitle={subtitle}>
      <Stack gap="lg">
        <Card withBorder padding="md">
          <Title order={2} size="h4" mb="sm">Request access</Title>
          <RequestSupportForm
            organizations={mine.data.organizations} roles={mine.data.requestable_roles} breakGlass={mine.data.break_glass}
            onSubmit={(id, body) => request.mutateAsync({ organizationId: id, body }).then((r) => notifySuccess(r.state === 'APPROVED' ? `Support access #${r.request_id} is active.` : `Asked for support access #${r.request_id}; ${r.organization_name} is told.`))}
          />
        </Card>
        {active.length ? (
          <Stack gap={4}>
            {active.map((r) => (
              <Text key={r.request_id} size="sm">
                {`#${r.request_id} is active: `}
                <Anchor component={Link} to={organizationPath(r.organization_id, 'licenses')}>{`open ${r.organization_name}`}</Anchor>
              </Text>
            ))}
          </Stack>
        ) : null}
        <Stack gap="xs">
          <Title order={2} size="h4">Your requests</Title>
          {mine.data.items.length ? <SupportRequestsTable requests={mine.data.items} organization /> : <Text c="dimmed" size="sm">No requests yet.</Text>}
        </Stack>
      </Stack>
    </Page>
  );
}
