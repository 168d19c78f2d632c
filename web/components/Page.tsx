/** A page's one h1, its document title and an optional row of actions beside the heading. */
import type { ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from './usePageTitle';

export interface PageProps {
  title: string;
  /** document.title when it should differ from the heading. */
  documentTitle?: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}

export function Page({ title, documentTitle, subtitle, actions, children }: PageProps) {
  usePageTitle(documentTitle ?? title);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} miw={0}>
          <Title order={1} size="h2" className="break-anywhere">
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" size="sm" className="break-anywhere">
              {subtitle}
            </Text>
          ) : null}
        </Stack>
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Group>
      {children}
    </Stack>
  );
}
