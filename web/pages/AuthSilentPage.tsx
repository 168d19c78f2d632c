/** /auth/silent: the end of an iframe sign-in, for providers that use it (the renewal here uses the refresh token). */
import { useEffect } from 'react';
import { VisuallyHidden } from '@mantine/core';
import { completeSilentSignIn } from '../lib/auth';

export default function AuthSilentPage() {
  useEffect(() => {
    void completeSilentSignIn().catch(() => undefined);
  }, []);
  return (
    <VisuallyHidden>
      <h1>Signing in</h1>
    </VisuallyHidden>
  );
}
