/**
 * A webhook endpoint's page (/organizations/:orgId/notifications/webhooks/:endpointId): what it
 * receives, its actions (Edit, Rotate secret, Delete) and its delivery log with Redeliver.
 */
import { useParams } from 'react-router';
import { Badge, DataList, Group, Stack, Title } from '@mantine/core';
import { formatDateTime } from '../../../common/dates';
import { Loading } from '../../components/Loading';
import { NoPermission } from '../../components/NoPermission';
import { NotFound } from '../../components/NotFound';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { allowedIn } from '../../lib/actor';
import { useWebhooks } from './api/get-webhooks';
import { eventLabel } from './components/event-groups';
import { notificationsPath } from './paths';
import { DeliveryLog } from './webhooks/DeliveryLog';
import { EndpointActions } from './webhooks/EndpointActions';
import { Fact } from '../../components/Fact';
import { ActiveBadge } from './webhooks/WebhooksPanel';

export default function WebhookPage() {
  const { endpointId = '' } = useParams();
  const { orgId, organization } = useRouteOrganization();
  const allowed = allowedIn(organization, 'notifications.manage');
  const webhooks = useWebhooks(orgId, allowed);
  const back = { to: notificationsPath(orgId, 'webhooks'), label: 'Back to webhooks' };

  if (!organization || (allowed && webhooks.isPending)) return <Loading />;
  if (!allowed) {
    return (
      <Page title="Webhook endpoint">
        <NoPermission title="You may not see the webhooks here" doing="Managing the webhooks" action="notifications.manage" />
      </Page>
    );
  }
  const endpoint = webhooks.data?.find((w) => w.endpoint_id === endpointId);
  if (!endpoint) return <NotFound what="webhook endpoint" back={back} />;

  return (
    <Page
      title="Webhook endpoint"
      documentTitle={`${endpoint.url} · Webhooks`}
      back={{ to: back.to, list: 'webhooks' }}
      actions={<EndpointActions endpoint={endpoint} />}
    >
      <DataList labelWidth="9rem">
        <Fact label="URL" mono>
          {endpoint.url}
        </Fact>
        {endpoint.description ? <Fact label="Description">{endpoint.description}</Fact> : null}
        <Fact label="State">
          <ActiveBadge active={endpoint.active} />
        </Fact>
        <Fact label="Events">
          <Group gap={4} wrap="wrap">
            {endpoint.events.map((event) => (
              <Badge key={event} variant="outline" size="sm" tt="none">
                {eventLabel(event)}
              </Badge>
            ))}
          </Group>
        </Fact>
        <Fact label="Failed deliveries">{endpoint.failed_deliveries}</Fact>
        <Fact label="Registered">{formatDateTime(endpoint.date_created)}</Fact>
        {endpoint.previous_secret_until ? <Fact label="Previous secret">Signs too until {formatDateTime(endpoint.previous_secret_until)}</Fact> : null}
      </DataList>
      <Stack gap="sm" component="section" aria-labelledby="deliveries-heading">
        <Title order={2} size="h4" id="deliveries-heading">
          Delivery log
        </Title>
        <DeliveryLog endpoint={{ organizationId: orgId, endpointId: endpoint.endpoint_id }} />
      </Stack>
    </Page>
  );
}
