/** /auth/welcome (SPEC.md §2): signed in at the provider, but no organization knows the person. */
import { List, Stack, Text, Title } from '@mantine/core';
import { CenteredCard } from '../components/CenteredCard';
import { ButtonLink } from '../components/Link';
import { usePageTitle } from '../components/usePageTitle';
import { PATHS } from '../lib/navigation';

export default function AuthWelcomePage() {
  usePageTitle('Unknown organization');
  return (
    <CenteredCard>
      <Stack gap="md">
        <Title order={1} size="h2">
          Your organization is not known to the portal
        </Title>
        <Text>You are not allowed to sign up for the portal on your own.</Text>
        <List spacing="xs">
          <List.Item>Please sign in with your company email address.</List.Item>
          <List.Item>
            If you sign in with a GitHub account, make your company email address public in your GitHub profile
            first.
          </List.Item>
        </List>
        <ButtonLink to={PATHS.logout} variant="filled">
          Sign in with another account
        </ButtonLink>
      </Stack>
    </CenteredCard>
  );
}
