/**
 * The roles of a new API key: one or more rows of role and scope with the Roles tab's selectors and rules
 * (members/components/RoleScopeSelects.tsx; roles the caller may not grant, common/policy.ts grantableBy, and roles
 * another row already holds are disabled), each row removable while more than one is left. The server decides
 * (canGrant) and its 400 about `roles` shows under the rows.
 */
import { Button, Fieldset, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { randomId } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ROLES, type OrganizationRole, type Role, type Scope } from '../../../common/enums';
import { assignableRoles, grantableBy } from '../../../common/policy';
import type { SchemaForm } from '../../lib/forms';
import { useCurrentOrganization } from '../../lib/session';
import { RoleSelect, ScopeSelect } from '../members/components/RoleScopeSelects';

export interface RoleRow {
  role: Role | null;
  scope: Scope | null;
  /** React's key for the row: rows are removed from the middle too. */
  key: string;
}

export const newRoleRow = (): RoleRow => ({ role: null, scope: 'ORGANIZATION', key: randomId() });

export function ApiKeyRoleRows<Values extends { roles: RoleRow[] }>({ form, organizationRole }: { form: SchemaForm<Values>; organizationRole: OrganizationRole }) {
  const assignable = assignableRoles(organizationRole);
  const grantable = grantableBy(useCurrentOrganization()?.roles.map((a) => a.role) ?? []);
  // Operator members are the ones offered the operator's roles (common/policy.ts assignableRoles), as on the Roles tab.
  const offered = ROLES.filter((r) => r !== 'DEVOPS' || assignable.includes('DEVOPS'));
  const mayGive = offered.filter((r) => assignable.includes(r) && grantable.includes(r));
  const rows = form.getValues().roles;
  // The form's values are typed loosely by Mantine for generic forms: the paths below are the rows'.
  const path = (i: number, field: 'role' | 'scope') => `roles.${i}.${field}` as never;
  const listError = form.errors.roles;
  return (
    <Stack gap="xs">
      {rows.map((row, i) => {
        const elsewhere = new Set(rows.filter((_, j) => j !== i).map((r) => r.role));
        const choices = offered.map((r) => ({ value: r, disabled: !mayGive.includes(r) || elsewhere.has(r) }));
        return (
          <Fieldset key={row.key} legend={`Role ${i + 1}`} p="sm">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <RoleSelect roles={choices} required {...form.getInputProps(path(i, 'role'))} value={row.role}
                onChange={(role) => form.setFieldValue(path(i, 'role'), role as never)} />
              <ScopeSelect required {...form.getInputProps(path(i, 'scope'))} value={row.scope}
                onChange={(scope) => form.setFieldValue(path(i, 'scope'), scope as never)} />
            </SimpleGrid>
            {rows.length > 1 ? (
              <Group justify="flex-end" mt="xs">
                <Button variant="subtle" color="gray" size="xs" leftSection={<IconTrash size={14} aria-hidden />}
                  aria-label={`Remove role ${i + 1}`} onClick={() => form.removeListItem('roles' as never, i)}>
                  Remove
                </Button>
              </Group>
            ) : null}
          </Fieldset>
        );
      })}
      {listError ? (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      ) : null}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} disabled={rows.length >= mayGive.length}
          onClick={() => form.insertListItem('roles' as never, newRoleRow() as never)}>
          Add a role
        </Button>
      </Group>
    </Stack>
  );
}
