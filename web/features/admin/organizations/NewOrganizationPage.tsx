/**
 * New organization (SPEC.md §2, §5): a Customer (default) or a Partner; a customer goes below
 * the chosen parent, by default the signed-in member's organization; a partner always below
 * that organization. Checked with the API's own schema (lib/forms.ts); a server 400 shows under
 * the field it names. Afterwards the new organization's details open.
 */
import { useNavigate } from 'react-router';
import { Button, Group } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { organizationCreateSchema } from '../../../../common/schemas/organization';
import { Page } from '../../../components/Page';
import { ButtonLink } from '../../../components/Link';
import { applyServerError, useSchemaForm } from '../../../lib/forms';
import { notifySuccess } from '../../../lib/notifications';
import { useProfile } from '../../../lib/session';
import { useCreateOrganization } from './api/create-organization';
import { bodyOf, OrganizationForm, type OrganizationFormValues } from './OrganizationForm';
import { adminOrganizationPath, adminOrganizationsPath } from './paths';

export default function NewOrganizationPage() {
  const profile = useProfile();
  const navigate = useNavigate();
  const create = useCreateOrganization();
  const own = profile ? { organization_id: profile.organization_id, organization_name: profile.organization_name } : null;
  const form = useSchemaForm<OrganizationFormValues>(organizationCreateSchema, {
    organization_name: '',
    organization_role: 'CUSTOMER',
    parent_organization: profile?.organization_id ?? null,
    website: '',
    logo_url: '',
    address: '',
    domains: '',
  });

  // A partner always goes below the creator's organization (docs/decisions.md).
  const changeRole = (role: OrganizationFormValues['organization_role']) =>
    form.setValues(role === 'PARTNER' ? { organization_role: role, parent_organization: profile?.organization_id ?? null } : { organization_role: role });

  const submit = (values: OrganizationFormValues) => {
    const body = organizationCreateSchema.parse({ ...bodyOf(values), organization_role: values.organization_role });
    create.mutate(body, {
      onSuccess: (organization) => {
        notifySuccess(`Created ${organization.organization_name}.`);
        void navigate(adminOrganizationPath(organization.organization_id), { replace: true });
      },
      onError: (error) => applyServerError(form, error),
    });
  };

  return (
    <Page title="New organization" documentTitle="New organization · Admin">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <OrganizationForm
          form={form}
          roleSelectable
          onRoleChange={changeRole}
          initialParent={own}
          organizationId={null}
          parentLockedReason={form.values.organization_role === 'PARTNER' ? 'A partner goes below your organization.' : null}
        >
          <Group gap="xs">
            <Button type="submit" leftSection={<IconPlus size={16} aria-hidden />} loading={create.isPending}>
              Create organization
            </Button>
            <ButtonLink to={adminOrganizationsPath} variant="default">
              Cancel
            </ButtonLink>
          </Group>
        </OrganizationForm>
      </form>
    </Page>
  );
}
