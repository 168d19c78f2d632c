/** The card of the bare screens (Welcome, errors): a main landmark with one centered card. */
import type { ReactNode } from 'react';
import { Box, Card, Center, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { APP_TITLE } from './usePageTitle';

export function CenteredCard({ children }: { children: ReactNode }) {
  return (
    <Center mih="100dvh" p="md" className="backdrop">
      <Card withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={520}>
        <Stack gap="lg">
          <Group gap="xs" aria-hidden>
            <ThemeIcon size="lg" radius="md" variant="filled">
              <IconShieldCheck size={20} />
            </ThemeIcon>
            <Text fw={700} size="lg">
              {APP_TITLE}
            </Text>
          </Group>
          <Box>{children}</Box>
        </Stack>
      </Card>
    </Center>
  );
}
