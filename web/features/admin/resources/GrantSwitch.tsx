/**
 * The switch that grants a RESTRICTED resource to an organization or takes it back (SPEC.md §4),
 * on both sides: the resource's Organizations tab and the organization's Resources tab. It moves
 * at once and back if the call fails (set-resource-grant.ts); it waits while its call runs. A done
 * change is confirmed with a toast, like every other action.
 */
import { Switch } from '@mantine/core';
import type { Organization } from '../../../../common/schemas/organization';
import { notifySuccess } from '../../../lib/notifications';
import { useSetResourceGrant } from './api/set-resource-grant';

export interface GrantSwitchProps {
  resourceId: string;
  resourceName: string;
  organization: Pick<Organization, 'organization_id' | 'organization_name'>;
  granted: boolean;
  editable: boolean;
  /** The switch's accessible name: which resource, to which organization. */
  label: string;
}

export function GrantSwitch({ resourceId, resourceName, organization, granted, editable, label }: GrantSwitchProps) {
  const grant = useSetResourceGrant();
  return (
    <Switch
      aria-label={label}
      checked={granted}
      disabled={!editable || grant.isPending}
      onChange={(event) => {
        const change = { resourceId, organizationId: organization.organization_id, organizationName: organization.organization_name, granted: event.currentTarget.checked };
        const name = organization.organization_name;
        grant.mutate(change, {
          onSuccess: () => notifySuccess(change.granted ? `Granted ${resourceName} to ${name}.` : `${resourceName} is no longer granted to ${name}.`),
        });
      }}
    />
  );
}
