/**
 * /auth/callback: the provider's redirect with the authorization code. The code is exchanged
 * (PKCE), then Welcome continues as for any sign-in. A failure is stored as
 * 'Auth failed. Unknown error occurred' and shown on Welcome (SPEC.md §8).
 */
import { useEffect } from 'react';
import { CenteredCard } from '../components/CenteredCard';
import { Loading } from '../components/Loading';
import { Title } from '@mantine/core';
import { usePageTitle } from '../components/usePageTitle';
import { completeSignIn } from '../lib/auth';
import { navigateTo, PATHS } from '../lib/navigation';
import { AUTH_FAILED, session } from '../lib/session';

// The code can be exchanged once: React's development double effects must not try twice.
let exchange: Promise<void> | null = null;

function finishSignIn(): Promise<void> {
  exchange ??= completeSignIn()
    .then((returnUrl) => {
      if (returnUrl) session.setReturnUrl(returnUrl);
      session.setLoggedOut(false);
      session.setAuthError(null);
    })
    .catch((error: unknown) => {
      console.error('sign-in callback failed', error);
      session.setAuthError(AUTH_FAILED);
    })
    .finally(() => {
      exchange = null;
      navigateTo(PATHS.login, { replace: true });
    });
  return exchange;
}

export default function AuthCallbackPage() {
  usePageTitle('Signing in');
  useEffect(() => {
    void finishSignIn();
  }, []);
  return (
    <CenteredCard>
      <Title order={1} size="h2">
        Welcome
      </Title>
      <Loading label="Signing you in…" />
    </CenteredCard>
  );
}
