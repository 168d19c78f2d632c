/** /network-error (SPEC.md §2): the server could not be reached or failed. */
import { useNavigate } from 'react-router';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { CenteredCard } from '../components/CenteredCard';
import { ButtonLink } from '../components/Link';
import { usePageTitle } from '../components/usePageTitle';
import { PATHS } from '../lib/navigation';

export default function NetworkErrorPage() {
  usePageTitle('Network issues');
  const navigate = useNavigate();
  return (
    <CenteredCard>
      <Stack gap="md">
        <Title order={1} size="h2">
          Uh-Oh!
        </Title>
        <Text>Something went wrong because of network issues, please try again.</Text>
        <Group gap="sm">
          <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={() => navigate(-1)}>
            Go Back
          </Button>
          <ButtonLink to={PATHS.login}>Visit Welcome Page</ButtonLink>
        </Group>
      </Stack>
    </CenteredCard>
  );
}
