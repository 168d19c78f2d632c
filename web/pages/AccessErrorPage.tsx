/**
 * /access-error (SPEC.md §2): signed in, but without access (no member, banned, or refused). A
 * sign-in refused with a reason (the provider did not send or verify the email) shows it here.
 */
import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CenteredCard } from '../components/CenteredCard';
import { AnchorLink } from '../components/Link';
import { usePageTitle } from '../components/usePageTitle';
import { PATHS } from '../lib/navigation';
import { useSession } from '../lib/session';

const SUPPORT_EMAIL = 'support@operator.example';
const SUPPORT_REQUEST = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Customer Portal: access request')}`;

export default function AccessErrorPage() {
  usePageTitle('No access');
  const { authError } = useSession();
  return (
    <CenteredCard>
      <Stack gap="md">
        <Title order={1} size="h2">
          Our apologies! You have no access to the portal services
        </Title>
        {authError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Why">
            {authError}
          </Alert>
        ) : null}
        <Text>
          If you think you should have access, please{' '}
          <Anchor href={`mailto:${SUPPORT_EMAIL}`}>contact us</Anchor> or{' '}
          <Anchor href={SUPPORT_REQUEST}>file a support request</Anchor>.
        </Text>
        <Text size="sm">
          <AnchorLink to={PATHS.logout}>Sign in with another account</AnchorLink>
        </Text>
      </Stack>
    </CenteredCard>
  );
}
