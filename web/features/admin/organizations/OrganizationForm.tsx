/**
 * The fields of an organization, shared by the details and the new-organization screens
 * (SPEC.md §3, §5): the parent selector lists no customers and is disabled unless the
 * organization is a customer; the website gets https:// when no scheme is given; trusted domains
 * are one text field split on commas or whitespace, which the API's schemas take as they are. The
 * screens check the values with those schemas (lib/forms.ts: create and update).
 */
import { useCallback, useState, type ReactNode } from 'react';
import { Anchor, Group, Image, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { label, type OrganizationRole } from '../../../../common/enums';
import { normalizeWebsite, parseDomains, type Organization } from '../../../../common/schemas/organization';
import { OrganizationSelect, type OrganizationChoice } from '../../../components/OrganizationSelect';
import type { SchemaForm } from '../../../lib/forms';

export interface OrganizationFormValues {
  organization_name: string;
  organization_role: OrganizationRole;
  parent_organization: string | null;
  website: string;
  logo_url: string;
  address: string;
  /** One text, as typed: "contoso.example, contoso.de". */
  domains: string;
}

export const formValuesOf = (organization: Organization): OrganizationFormValues => ({
  organization_name: organization.organization_name,
  organization_role: organization.organization_role,
  parent_organization: organization.parent_organization,
  website: organization.website ?? '',
  logo_url: organization.logo_url ?? '',
  address: organization.address ?? '',
  domains: organization.domains.join(', '),
});

/** The request body; the parent only for customers (others ignore it, SPEC.md §5). */
export function bodyOf(values: OrganizationFormValues) {
  return {
    organization_name: values.organization_name,
    website: values.website,
    logo_url: values.logo_url,
    address: values.address,
    domains: values.domains,
    ...(values.organization_role === 'CUSTOMER' ? { parent_organization: values.parent_organization } : {}),
  };
}

export interface OrganizationFormProps {
  form: SchemaForm<OrganizationFormValues>;
  /** The role control: a Customer/Partner select on the new screen, else read-only text. */
  roleSelectable: boolean;
  /** A role chosen in the select; by default it only sets the role. */
  onRoleChange?: (role: OrganizationRole) => void;
  /** The parent the form starts with (its name shows before any search); null for none. */
  initialParent: OrganizationChoice | null;
  /** The organization being edited: never its own parent. */
  organizationId: string | null;
  /** Why the parent cannot be chosen, or null when it can. */
  parentLockedReason: string | null;
  readOnly?: boolean;
  /** Buttons under the fields. */
  children?: ReactNode;
}

const ROLE_OPTIONS = [
  { value: 'CUSTOMER', label: 'Customer' },
  { value: 'PARTNER', label: 'Partner' },
];

function WebsiteHint({ website }: { website: string }) {
  if (!website.trim()) return null;
  const link = normalizeWebsite(website);
  if (!link) return null;
  return (
    <Text size="xs" c="dimmed" className="break-anywhere">
      Link:{' '}
      <Anchor href={link} target="_blank" rel="noopener noreferrer" size="xs">
        {link}
      </Anchor>
    </Text>
  );
}

function LogoPreview({ url }: { url: string }) {
  const trimmed = url.trim();
  if (!/^https:\/\/[^/\s]+\.[^/\s]+/i.test(trimmed)) return null;
  return (
    <Group gap="xs" align="center">
      <Text size="xs" c="dimmed">
        Preview:
      </Text>
      <Image src={trimmed} alt="Logo preview" h={48} w="auto" maw={240} fit="contain" />
    </Group>
  );
}

export function OrganizationForm({
  form,
  roleSelectable,
  onRoleChange = (role) => form.setFieldValue('organization_role', role),
  initialParent,
  organizationId,
  parentLockedReason,
  readOnly = false,
  children,
}: OrganizationFormProps) {
  const { values, errors } = form;
  // The names of the parents shown so far, by id: the form's value is the id alone.
  const [parentNames, setParentNames] = useState<Record<string, string>>(() =>
    initialParent ? { [initialParent.organization_id]: initialParent.organization_name } : {},
  );
  const parentId = values.parent_organization;
  const parent = parentId ? { organization_id: parentId, organization_name: parentNames[parentId] ?? parentId } : null;
  const chooseParent = (organization: Organization) => {
    setParentNames((names) => ({ ...names, [organization.organization_id]: organization.organization_name }));
    form.setFieldValue('parent_organization', organization.organization_id);
  };
  // SPEC.md §5: a partner or the operator, never a customer, never the organization itself.
  const acceptParent = useCallback(
    (o: Organization) => o.organization_role !== 'CUSTOMER' && o.organization_id !== organizationId,
    [organizationId],
  );

  const text = (field: 'organization_name' | 'website' | 'logo_url' | 'address' | 'domains') => ({ ...form.getInputProps(field), readOnly });

  // Tidy on leaving the field, so the person sees what will be saved.
  const tidyWebsite = () => {
    const link = values.website.trim() ? normalizeWebsite(values.website) : null;
    if (link && link !== values.website) form.setFieldValue('website', link);
  };
  const tidyDomains = () => {
    const { domains, invalid } = parseDomains(values.domains);
    if (invalid.length === 0 && domains.join(', ') !== values.domains) form.setFieldValue('domains', domains.join(', '));
  };

  return (
    <Stack gap="md" maw={720}>
      <TextInput label="Name" required maxLength={200} {...text('organization_name')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {roleSelectable ? (
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            {...form.getInputProps('organization_role')}
            onChange={(value) => value && onRoleChange(value as OrganizationRole)}
            allowDeselect={false}
            description="A customer or a partner."
            readOnly={readOnly}
            comboboxProps={{ withinPortal: true }}
          />
        ) : (
          <TextInput
            label="Role"
            value={label(values.organization_role)}
            readOnly
            variant="filled"
            description="Fixed when it was created."
          />
        )}
        <OrganizationSelect
          label="Parent organization"
          placeholder="None"
          value={parent}
          onChange={chooseParent}
          accept={acceptParent}
          disabled={!!parentLockedReason}
          readOnly={readOnly}
          description={parentLockedReason ?? 'A partner or the operator.'}
          error={errors.parent_organization as string | undefined}
          comboboxProps={{ withinPortal: true }}
        />
      </SimpleGrid>
      <Stack gap={4}>
        <TextInput
          label="Website"
          placeholder="contoso.example"
          description="https:// is added when no scheme is given."
          maxLength={2000}
          {...text('website')}
          onBlur={tidyWebsite}
        />
        <WebsiteHint website={values.website} />
      </Stack>
      <Stack gap={4}>
        <TextInput
          label="Logo URL"
          placeholder="https://contoso.example/logo.png"
          description="An https:// address; shown in the organization sidebar."
          maxLength={2000}
          {...text('logo_url')}
        />
        <LogoPreview url={values.logo_url} />
      </Stack>
      <Textarea label="Address" autosize minRows={2} maxLength={1000} {...text('address')} />
      <Textarea
        label="Trusted domains"
        placeholder="contoso.example, contoso.de"
        description="People with a verified email address of these domains join as members at their first sign-in. Separate with commas or spaces."
        autosize
        minRows={1}
        maxLength={10000}
        {...text('domains')}
        onBlur={tidyDomains}
      />
      {children}
    </Stack>
  );
}
