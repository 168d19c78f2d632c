/** A resource's access level as a badge: Public, Default or Restricted. */
import { Badge } from '@mantine/core';
import type { ResourceAccess } from '../../common/enums';
import { RESOURCE_ACCESS_LABELS } from './resource-labels';

const COLORS: Record<ResourceAccess, string> = {
  PUBLIC: 'teal',
  DEFAULT: 'blue',
  RESTRICTED: 'orange',
};

export function ResourceAccessBadge({ access }: { access: ResourceAccess }) {
  return (
    // A span: it also stands inside a page's subtitle, which is a paragraph.
    <Badge variant="light" color={COLORS[access]} component="span">
      {RESOURCE_ACCESS_LABELS[access]}
    </Badge>
  );
}
