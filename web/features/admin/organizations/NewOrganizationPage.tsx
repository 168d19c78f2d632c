/**
 * New organization (SPEC.md §2, §5): a Customer (default) or a Partner; a customer goes below
 * the chosen parent, by default the signed-in member's organization; a partner always below
 * that organization. Afterwards the new organization's details open.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, Group } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { organizationCreateSchema } from '../../../../common/schemas/organization';
import { Page } from '../../../components/Page';
import { ButtonLink } from '../../../components/Link';
import { ApiError } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notifications';
import { useProfile } from '../../../lib/session';
import { useCreateOrganization } from './api/create-organization';
import {
  bodyOf,
  errorsOf,
  OrganizationForm,
  type OrganizationField,
  type OrganizationFormErrors,
  type OrganizationFormValues,
} from './OrganizationForm';
import { adminOrganizationPath, adminOrganizationsPath } from './paths';

export default function NewOrganizationPage() {
  const profile = useProfile();
  const navigate = useNavigate();
  const create = useCreateOrganization();
  const own = profile ? { organization_id: profile.organization_id, organization_name: profile.organization_name } : null;
  const [values, setValues] = useState<OrganizationFormValues>(() => ({
    organization_name: '',
    organization_role: 'CUSTOMER',
    parent_organization: profile?.organization_id ?? null,
    website: '',
    logo_url: '',
    address: '',
    domains: '',
  }));
  const [errors, setErrors] = useState<OrganizationFormErrors>({});

  const change = <F extends OrganizationField>(field: F, value: OrganizationFormValues[F]) => {
    setValues((current) => {
      const next = { ...current, [field]: value };
      // A partner always goes below the creator's organization (docs/decisions.md).
      if (field === 'organization_role' && value === 'PARTNER') next.parent_organization = profile?.organization_id ?? null;
      return next;
    });
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = organizationCreateSchema.safeParse({ ...bodyOf(values), organization_role: values.organization_role });
    if (!parsed.success) {
      setErrors(errorsOf(parsed.error));
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: (organization) => {
        notifySuccess(`Created ${organization.organization_name}.`);
        void navigate(adminOrganizationPath(organization.organization_id), { replace: true });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.field) setErrors({ [error.field]: error.message });
      },
    });
  };

  return (
    <Page title="New organization" documentTitle="New organization · Admin">
      <form onSubmit={submit} noValidate>
        <OrganizationForm
          values={values}
          errors={errors}
          onChange={change}
          roleSelectable
          initialParent={own}
          organizationId={null}
          parentLockedReason={values.organization_role === 'PARTNER' ? 'A partner goes below your organization.' : null}
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
