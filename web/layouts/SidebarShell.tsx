/**
 * The shell of the screens with a sidebar (SPEC.md §2): header, the sidebar beside the page and
 * the skip link. On phones the sidebar collapses behind a burger and closes again after each
 * navigation.
 */
import { Suspense, useEffect, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AppShell, Burger } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Loading } from '../components/Loading';
import { AppHeader } from './AppHeader';
import { MAIN_ID, SkipLink } from './SkipLink';

export interface SidebarShellProps {
  /** Name of the sidebar landmark, e.g. "Admin sidebar"; the burger names it too. */
  label: string;
  id: string;
  width: number;
  sidebar: ReactNode;
  /** Above every page of the layout (the sub-navbar). */
  top?: ReactNode;
  /** Shown instead of the route's page (an organization not found). */
  page?: ReactNode;
}

export function SidebarShell({ label, id, width, sidebar, top, page }: SidebarShellProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  useEffect(close, [pathname, close]);

  return (
    <AppShell header={{ height: 60 }} navbar={{ width, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <SkipLink />
      <AppHeader
        burger={
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label={`${opened ? 'Close' : 'Open'} the ${label.toLowerCase()}`}
            aria-expanded={opened}
            aria-controls={id}
          />
        }
      />
      <AppShell.Navbar p="md" id={id} aria-label={label}>
        {sidebar}
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID}>
        {top}
        {page ?? (
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        )}
      </AppShell.Main>
    </AppShell>
  );
}
