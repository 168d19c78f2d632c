/** Paths of the Notifications screen and of a webhook endpoint's page (issue 13). */
import { organizationPath } from '../../lib/navigation';

export const notificationsPath = (organizationId: string, tab?: 'rules' | 'webhooks') =>
  `${organizationPath(organizationId, 'notifications')}${tab ? `#${tab}` : ''}`;

export const webhookPagePath = (organizationId: string, endpointId: string) =>
  `${organizationPath(organizationId, 'notifications')}/webhooks/${encodeURIComponent(endpointId)}`;
