/** How resource types and access levels read on screen (the organization's and the admin screens). */
import type { ResourceAccess, ResourceType } from '../../common/enums';

export const RESOURCE_TYPE_LABELS: Record<ResourceType, string> = {
  LINUX_PACKAGE: 'Linux package',
  IMAGE_STORE: 'Image store',
  STATIC_CONTENT: 'Static content',
};

export const RESOURCE_ACCESS_LABELS: Record<ResourceAccess, string> = {
  PUBLIC: 'Public',
  DEFAULT: 'Default',
  RESTRICTED: 'Restricted',
};
