/** A member's roles as badges; roles held in another organization name that organization. */
import { Badge, Group, Text } from '@mantine/core';
import { label } from '../../../../common/enums';
import type { MemberRole } from '../../../../common/schemas/member';

export function RoleBadges({ roles, organizationId }: { roles: MemberRole[]; organizationId: string }) {
  if (roles.length === 0) return <Text size="sm">-</Text>;
  return (
    <Group gap={4} wrap="wrap">
      {roles.map((role) => {
        const elsewhere = role.organization_id !== organizationId;
        return (
          <Badge
            key={`${role.organization_id}|${role.role}`}
            variant={elsewhere ? 'outline' : 'light'}
            size="sm"
            tt="none"
            title={`${label(role.role)} in ${role.organization_name}, scope ${label(role.scope)}`}
          >
            {label(role.role)}
            {elsewhere ? ` · ${role.organization_name}` : ''}
          </Badge>
        );
      })}
    </Group>
  );
}
