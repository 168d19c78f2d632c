/**
 * The Organization tab: the organization's fields, saved with PUT for those allowed
 * organization.save; checked with the API's own schema (lib/forms.ts), a server 400 under the
 * field it names.
 */
import { Button, Group, Text } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { organizationUpdateSchema, type Organization } from '../../../../common/schemas/organization';
import { applyServerError, useSchemaForm } from '../../../lib/forms';
import { notifySuccess } from '../../../lib/notifications';
import { useUpdateOrganization } from './api/update-organization';
import { bodyOf, formValuesOf, OrganizationForm, type OrganizationFormValues } from './OrganizationForm';

const sameValues = (a: OrganizationFormValues, b: OrganizationFormValues) =>
  (Object.keys(a) as (keyof OrganizationFormValues)[]).every((field) => a[field] === b[field]);

export function OrganizationDetailsForm({ organization, canSave }: { organization: Organization; canSave: boolean }) {
  const form = useSchemaForm(organizationUpdateSchema, formValuesOf(organization));
  const update = useUpdateOrganization();
  const saved = formValuesOf(organization);
  const dirty = !sameValues(form.values, saved);

  const submit = (values: OrganizationFormValues) => {
    update.mutate(
      { organizationId: organization.organization_id, organization: organizationUpdateSchema.parse(bodyOf(values)) },
      {
        onSuccess: (fresh) => {
          form.setValues(formValuesOf(fresh));
          notifySuccess(`Saved ${fresh.organization_name}.`);
        },
        onError: (error) => applyServerError(form, error),
      },
    );
  };

  const parentLockedReason =
    organization.organization_role === 'CUSTOMER'
      ? null
      : organization.organization_role === 'OPERATOR'
        ? 'The operator has no parent.'
        : 'Only customers move to another parent.';

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <OrganizationForm
        form={form}
        roleSelectable={false}
        initialParent={
          organization.parent_organization
            ? { organization_id: organization.parent_organization, organization_name: organization.parent_organization_name ?? organization.parent_organization }
            : null
        }
        organizationId={organization.organization_id}
        parentLockedReason={parentLockedReason}
        readOnly={!canSave}
      >
        {canSave ? (
          <Group gap="xs">
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={update.isPending} disabled={!dirty}>
              Save
            </Button>
            {dirty ? (
              <Button variant="default" onClick={() => form.setValues(saved)}>
                Reset
              </Button>
            ) : null}
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            Saving this organization needs a SUPERVISOR or ADMINISTRATOR role that applies to it.
          </Text>
        )}
      </OrganizationForm>
    </form>
  );
}
