/**
 * The switch that grants a RESTRICTED resource to an organization or takes it back (SPEC.md §4),
 * on both sides: the resource's Organizations tab and the organization's Resources tab. It moves
 * at once and back if the call fails (set-resource-grant.ts); it waits while its call runs.
 */
import { Switch } from '@mantine/core';
import type { Organization } from '../../../../common/schemas/organization';
import { useSetResourceGrant } from './api/set-resource-grant';

export interface GrantSwitchProps {
  resourceId: string;
  organization: Pick<Organization, 'organization_id' | 'organization_name'>;
  granted: boolean;
  editable: boolean;
  /** The switch's accessible name: which resource, to which organization. */
  label: string;
}

export function GrantSwitch({ resourceId, organization, granted, editable, label }: GrantSwitchProps) {
  const grant = useSetResourceGrant();
  return (
    <Switch
      aria-label={label}
      checked={granted}
      disabled={!editable || grant.isPending}
      onChange={(event) =>
        grant.mutate({
          resourceId,
          organizationId: organization.organization_id,
          organizationName: organization.organization_name,
          granted: event.currentTarget.checked,
        })
      }
    />
  );
}
