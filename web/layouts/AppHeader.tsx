/**
 * The header of every signed-in layout: the title, then Self-Service, Release Notes, Admin
 * (SCREENS.admin), Logout and the member's name in brackets (SPEC.md §2), the notification bell
 * (issue 13, features/notices) and the light/dark switch. On phones the links move into a menu so
 * nothing overflows; its code (HeaderMenu) loads when the button is reached for, and the menu opens
 * once it has. The bell stays in the header at every width.
 */
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { ActionIcon, Anchor, AppShell, Group, Text, ThemeIcon } from '@mantine/core';
import { IconDotsVertical, IconShieldCheck } from '@tabler/icons-react';
import { SCREENS } from '../../common/policy';
import { useAbility, useActor } from '../lib/actor';
import { PATHS, PENDING_TASKS_PATH } from '../lib/navigation';
import { useProfile } from '../lib/session';
import { APP_TITLE } from '../components/usePageTitle';
import { NoticeBell } from '../features/notices/components/NoticeBell';
import { ColorSchemeToggle } from './ColorSchemeToggle';

interface HeaderLink {
  to: string;
  label: string;
  /** Path that marks the link as the current one; with `prefix`, any path below it too. */
  section?: string;
  prefix?: boolean;
}

function useHeaderLinks(): HeaderLink[] {
  const actor = useActor();
  const admin = SCREENS.admin(actor);
  // Whoever settles approvals without the Admin link (an APPROVER) reaches Pending Tasks here (docs/decisions.md).
  const pendingTasks = useAbility('approval.review') && !admin;
  return [
    { to: PATHS.home, label: 'Self-Service', section: PATHS.home },
    { to: PATHS.releaseNotes, label: 'Release Notes', section: PATHS.releaseNotes },
    ...(admin ? [{ to: PATHS.admin, label: 'Admin', section: PATHS.admin, prefix: true }] : []),
    ...(pendingTasks ? [{ to: PENDING_TASKS_PATH, label: 'Pending Tasks', section: PATHS.admin, prefix: true }] : []),
    { to: PATHS.logout, label: 'Logout' },
  ];
}

const loadHeaderMenu = () => import('./HeaderMenu');
const HeaderMenu = lazy(loadHeaderMenu);

function PhoneMenu({ name, links }: { name: string | null; links: HeaderLink[] }) {
  const [wanted, setWanted] = useState(false);
  const button = (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      hiddenFrom="sm"
      aria-label="Open the menu"
      aria-haspopup="menu"
      onPointerEnter={() => void loadHeaderMenu()}
      onFocus={() => void loadHeaderMenu()}
      onClick={wanted ? undefined : () => setWanted(true)}
    >
      <IconDotsVertical size={20} />
    </ActionIcon>
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <HeaderMenu button={button} name={name} links={links} />
    </Suspense>
  );
}

export function AppHeader({ burger }: { burger?: ReactNode }) {
  const profile = useProfile();
  const links = useHeaderLinks();
  const { pathname } = useLocation();
  const isCurrent = (link: HeaderLink) =>
    !!link.section && (pathname === link.section || (!!link.prefix && pathname.startsWith(`${link.section}/`)));
  const name = profile?.name ? `[${profile.name}]` : null;

  return (
    <AppShell.Header>
      <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          {burger}
          {/* The title gives way (truncated) to the header's buttons on narrow phones. */}
          <Anchor component={Link} to={PATHS.home} underline="never" c="inherit" aria-label={`${APP_TITLE}: Self-Service`} miw={0}>
            <Group gap={8} wrap="nowrap" miw={0}>
              <ThemeIcon size="md" radius="md" variant="filled" aria-hidden>
                <IconShieldCheck size={18} />
              </ThemeIcon>
              {/* A size smaller on phones, so "Customer Portal" fits beside the burger and the three buttons at 390 px. */}
              <Text fw={700} fz={{ base: 'md', sm: 'lg' }} truncate>
                {APP_TITLE}
              </Text>
            </Group>
          </Anchor>
        </Group>

        <Group gap="xs" wrap="nowrap" style={{ flex: 'none' }}>
          <Group component="nav" aria-label="Main" gap="lg" wrap="nowrap" visibleFrom="sm">
            {links.map((link) => (
              <Anchor
                key={link.to}
                component={Link}
                to={link.to}
                size="sm"
                fw={isCurrent(link) ? 700 : 500}
                underline={isCurrent(link) ? 'always' : 'hover'}
                aria-current={isCurrent(link) ? 'page' : undefined}
              >
                {link.label}
              </Anchor>
            ))}
            {name ? (
              <Text size="sm" fw={500} data-testid="user-name">
                {name}
              </Text>
            ) : null}
          </Group>

          <NoticeBell />
          <ColorSchemeToggle />
          <PhoneMenu name={name} links={links} />
        </Group>
      </Group>
    </AppShell.Header>
  );
}
