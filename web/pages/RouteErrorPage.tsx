/**
 * A screen crashed or its code could not be loaded (typically an old tab after a new release:
 * the hashed files it asks for are gone). Reloading fetches the current version.
 */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { CenteredCard } from '../components/CenteredCard';
import { usePageTitle } from '../components/usePageTitle';

/** Shown by web/router.tsx's RouteErrorBoundary. */
export default function RouteErrorPage({ error }: { error: unknown }) {
  usePageTitle('Something went wrong');
  console.error(error);
  return (
    <main>
      <CenteredCard>
        <Stack gap="md">
          <Title order={1} size="h2">
            Something went wrong
          </Title>
          <Text>This screen could not be shown. Reloading the page usually helps.</Text>
          <Group>
            <Button onClick={() => window.location.reload()}>Reload</Button>
            <Button variant="default" component="a" href="/login">
              Visit Welcome Page
            </Button>
          </Group>
        </Stack>
      </CenteredCard>
    </main>
  );
}
