/** The roles that receive notices, as checkboxes (DEVOPS only for the operator, or when chosen already). */
import { Checkbox, Group } from '@mantine/core';
import { label as roleLabel, ROLES, type Role } from '../../../../common/enums';

export interface RoleChecklistProps {
  label: string;
  description?: string;
  value: Role[];
  onChange: (roles: Role[]) => void;
  operator: boolean;
  error?: string;
}

export function RoleChecklist({ label, description, value, onChange, operator, error }: RoleChecklistProps) {
  const roles = ROLES.filter((role) => role !== 'DEVOPS' || operator || value.includes(role));
  return (
    <Checkbox.Group label={label} description={description} value={value} onChange={(chosen) => onChange(chosen as Role[])} error={error}>
      <Group gap="md" mt={6} wrap="wrap">
        {roles.map((role) => (
          <Checkbox key={role} value={role} label={roleLabel(role)} />
        ))}
      </Group>
    </Checkbox.Group>
  );
}
