/**
 * The role and scope selectors, wherever a role is given (the Roles tab, the Invite form): each choice says in one
 * line what it means (common/role-help.ts), in the list and under the box for the chosen one (issue 34: "nothing
 * explains roles and scopes where they are chosen"). Which roles are offered and enabled is the caller's to say.
 */
import { Select, Stack, Text, type ComboboxItem, type SelectProps } from '@mantine/core';
import { label, SCOPES, type Role, type Scope } from '../../../../common/enums';
import { ROLE_HELP, SCOPE_HELP } from '../../../../common/role-help';

type Choice<T extends string> = { value: T; disabled?: boolean };

type Props<T extends string> = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: T | null;
  onChange: (value: T | null) => void;
};

function optionWith(help: Record<string, string>) {
  return ({ option }: { option: ComboboxItem }) => (
    <Stack gap={0}>
      <Text size="sm">{option.label}</Text>
      <Text size="xs" c="dimmed">
        {help[option.value]}
      </Text>
    </Stack>
  );
}

const roleOption = optionWith(ROLE_HELP);
const scopeOption = optionWith(SCOPE_HELP);

export function RoleSelect({ roles, value, onChange, ...props }: Props<Role> & { roles: Choice<Role>[] }) {
  return (
    <Select
      label="Role"
      placeholder="Choose a role"
      description={value ? ROLE_HELP[value] : 'What the person may do.'}
      data={roles.map((r) => ({ value: r.value, label: label(r.value), disabled: r.disabled }))}
      renderOption={roleOption}
      value={value}
      onChange={(v) => onChange(v as Role | null)}
      comboboxProps={{ withinPortal: true }}
      {...props}
    />
  );
}

export function ScopeSelect({ value, onChange, ...props }: Props<Scope>) {
  return (
    <Select
      label="Scope"
      placeholder="Choose a scope"
      description={value ? SCOPE_HELP[value] : 'Where the role applies.'}
      data={SCOPES.map((s) => ({ value: s, label: label(s) }))}
      renderOption={scopeOption}
      value={value}
      onChange={(v) => onChange(v as Scope | null)}
      comboboxProps={{ withinPortal: true }}
      {...props}
    />
  );
}
