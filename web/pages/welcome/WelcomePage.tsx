/**
 * Welcome (/login, /logout; SPEC.md §2). /login signs in at once, except right after a sign-out
 * or a failed sign-in: then it shows a Sign in button, since the provider's own session would
 * otherwise sign the person straight back in (or fail the same way again).
 */
import { useEffect, useRef, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconLogin2 } from '@tabler/icons-react';
import { CenteredCard } from '../../components/CenteredCard';
import { Loading } from '../../components/Loading';
import { usePageTitle } from '../../components/usePageTitle';
import { getUserManager, resetSignInAttempts } from '../../lib/auth';
import { navigateTo, PATHS } from '../../lib/navigation';
import { session, useSession } from '../../lib/session';
import { login, logout, type Outcome } from './login-flow';

type Action = 'login' | 'logout';
type Phase = 'working' | Outcome;

/** Back from the provider's sign-out with ?state=…: let the library tidy its stored state. */
async function finishSignOutRedirect(): Promise<void> {
  if (!new URLSearchParams(window.location.search).has('state')) return;
  try {
    await (await getUserManager()).signoutRedirectCallback();
  } catch {
    // Stale or foreign state: nothing to finish.
  }
  navigateTo(PATHS.login, { replace: true });
}

function WelcomeScreen({ action }: { action: Action }) {
  const { authError } = useSession();
  const started = useRef(false);
  const [phase, setPhase] = useState<Phase>(() =>
    action === 'login' && (session.isLoggedOut() || session.get().authError) ? 'prompt' : 'working',
  );
  usePageTitle(action === 'logout' ? 'Signing out' : 'Welcome');

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (action === 'logout') void logout().then(setPhase);
    else if (phase === 'working') void login().then(setPhase);
    else void finishSignOutRedirect();
  }, [action, phase]);

  const signInAgain = () => {
    session.setLoggedOut(false);
    session.setAuthError(null);
    resetSignInAttempts();
    setPhase('working');
    void login().then(setPhase);
  };

  return (
    <CenteredCard>
      <Stack gap="md">
        <Title order={1} size="h2">
          Welcome
        </Title>
        {phase === 'prompt' ? (
          <>
            <Text>
              Sign in to manage your organization's certificates, licenses, members and resources.
            </Text>
            {authError ? (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Sign-in failed">
                {authError}
              </Alert>
            ) : null}
            {session.isLoggedOut() && !authError ? <Text size="sm">You have been signed out.</Text> : null}
            <Button size="md" leftSection={<IconLogin2 size={18} aria-hidden />} onClick={signInAgain}>
              Sign in
            </Button>
          </>
        ) : (
          <Loading label={action === 'logout' ? 'Signing you out…' : 'Signing you in…'} />
        )}
      </Stack>
    </CenteredCard>
  );
}

/** /:action: login or logout; any other single segment is an unknown path. */
export default function WelcomePage() {
  const { action = 'login' } = useParams();
  if (action !== 'login' && action !== 'logout') return <Navigate to={PATHS.notFound} replace />;
  return <WelcomeScreen key={action} action={action} />;
}
