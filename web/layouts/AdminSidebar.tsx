/** The admin sidebar: only the screens SCREENS allows the signed-in member (SPEC.md §2). */
import { Link, useLocation } from 'react-router';
import { NavLink, Stack, Text } from '@mantine/core';
import { useActor } from '../lib/actor';
import { adminPath, allowedAdminScreens } from '../features/admin/screens';

export function AdminSidebar() {
  const actor = useActor();
  const { pathname } = useLocation();
  const screens = allowedAdminScreens(actor);

  return (
    <Stack gap={2}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" mb={4}>
        Administration
      </Text>
      {screens.map((screen) => {
        const to = adminPath(screen.path);
        const active = pathname === to || pathname.startsWith(`${to}/`);
        return (
          <NavLink
            key={screen.path}
            component={Link}
            to={to}
            label={screen.label}
            active={active}
            aria-current={active ? 'page' : undefined}
          />
        );
      })}
      {screens.length === 0 ? (
        <Text size="sm" c="dimmed">
          No admin screens are available to you.
        </Text>
      ) : null}
    </Stack>
  );
}
