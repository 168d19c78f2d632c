/**
 * Query keys and API paths of the Notifications screen. Every query of an organization sits under
 * `notificationKeys.organization(id)`; a webhook change invalidates `webhooks(id)`, which holds the
 * endpoint list and every delivery log of the organization.
 */
const organizationApi = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}`;

export const notificationKeys = {
  organization: (organizationId: string) => ['notifications', organizationId] as const,
  settings: (organizationId: string) => [...notificationKeys.organization(organizationId), 'settings'] as const,
  webhooks: (organizationId: string) => [...notificationKeys.organization(organizationId), 'webhooks'] as const,
  webhookList: (organizationId: string) => [...notificationKeys.webhooks(organizationId), 'list'] as const,
  deliveries: (organizationId: string, endpointId: string, query: object) =>
    [...notificationKeys.webhooks(organizationId), 'deliveries', endpointId, query] as const,
};

export const settingsApiPath = (organizationId: string) => `${organizationApi(organizationId)}/notifications`;

export const webhooksApiPath = (organizationId: string) => `${organizationApi(organizationId)}/webhooks`;

export const webhookApiPath = (organizationId: string, endpointId: string) =>
  `${webhooksApiPath(organizationId)}/${encodeURIComponent(endpointId)}`;

/** Which endpoint a call acts on. */
export interface EndpointRef {
  organizationId: string;
  endpointId: string;
}
