/** The Organization tab: the organization's fields, saved with PUT for those allowed organization.save. */
import { useState, type FormEvent } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { organizationUpdateSchema, type Organization } from '../../../../common/schemas/organization';
import { ApiError } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notifications';
import { useUpdateOrganization } from './api/update-organization';
import {
  bodyOf,
  errorsOf,
  formValuesOf,
  OrganizationForm,
  type OrganizationField,
  type OrganizationFormErrors,
  type OrganizationFormValues,
} from './OrganizationForm';

const sameValues = (a: OrganizationFormValues, b: OrganizationFormValues) =>
  (Object.keys(a) as OrganizationField[]).every((field) => a[field] === b[field]);

export function OrganizationDetailsForm({ organization, canSave }: { organization: Organization; canSave: boolean }) {
  const [values, setValues] = useState(() => formValuesOf(organization));
  const [errors, setErrors] = useState<OrganizationFormErrors>({});
  const update = useUpdateOrganization();
  const saved = formValuesOf(organization);
  const dirty = !sameValues(values, saved);
  const change = <F extends OrganizationField>(field: F, value: OrganizationFormValues[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = organizationUpdateSchema.safeParse(bodyOf(values));
    if (!parsed.success) {
      setErrors(errorsOf(parsed.error));
      return;
    }
    update.mutate(
      { organizationId: organization.organization_id, organization: parsed.data },
      {
        onSuccess: (fresh) => {
          setValues(formValuesOf(fresh));
          notifySuccess(`Saved ${fresh.organization_name}.`);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.field) setErrors({ [error.field]: error.message });
        },
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
    <form onSubmit={submit} noValidate>
      <OrganizationForm
        values={values}
        errors={errors}
        onChange={change}
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
              <Button
                variant="default"
                onClick={() => {
                  setValues(saved);
                  setErrors({});
                }}
              >
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
