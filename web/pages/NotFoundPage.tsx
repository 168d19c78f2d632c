/** /404 (SPEC.md §2): every unknown path lands here. */
import { Stack, Text, Title } from '@mantine/core';
import { CenteredCard } from '../components/CenteredCard';
import { ButtonLink } from '../components/Link';
import { usePageTitle } from '../components/usePageTitle';
import { PATHS } from '../lib/navigation';

export default function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <CenteredCard>
      <Stack gap="md">
        <Title order={1} size="h2">
          Page not found
        </Title>
        <Text>The page you asked for does not exist or has moved.</Text>
        <ButtonLink to={PATHS.login} variant="filled">
          Visit Welcome Page
        </ButtonLink>
      </Stack>
    </CenteredCard>
  );
}
