/** A page's one h1, its document title, an optional row of actions beside the heading and, on details screens, the way back. */
import type { ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from './usePageTitle';
import { BackLink, type Back } from './BackLink';

export interface PageProps {
  title: string;
  /** document.title when it should differ from the heading. */
  documentTitle?: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  /** A details screen's list, linked above the heading (BackLink). */
  back?: Back;
}

export function Page({ title, documentTitle, subtitle, actions, children, back }: PageProps) {
  usePageTitle(documentTitle ?? title);
  return (
    <Stack gap="lg">
      {back ? <BackLink {...back} /> : null}
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
