/** The header-only layout (Release Notes). */
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AppShell, Container } from '@mantine/core';
import { Loading } from '../components/Loading';
import { RequireAuth } from '../components/RequireAuth';
import { AppHeader } from './AppHeader';
import { MAIN_ID, SkipLink } from './SkipLink';

export default function HeaderOnlyLayout() {
  return (
    <RequireAuth>
      <AppShell header={{ height: 60 }} padding="md">
        <SkipLink />
        <AppHeader />
        <AppShell.Main id={MAIN_ID}>
          <Container size="md" px={0}>
            <Suspense fallback={<Loading />}>
              <Outlet />
            </Suspense>
          </Container>
        </AppShell.Main>
      </AppShell>
    </RequireAuth>
  );
}
