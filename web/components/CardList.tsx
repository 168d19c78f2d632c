/**
 * Phones (usePhone) get one card per row instead of a table wider than the screen: a list of
 * cards (ul/li, so a screen reader counts them) and the "Label: value" lines inside a card.
 */
import type { ReactNode } from 'react';
import { Card, Stack, Text } from '@mantine/core';

export function CardList({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
      {children}
    </Stack>
  );
}

export function ListCard({ children }: { children: ReactNode }) {
  return (
    <Card component="li" withBorder padding="md">
      {children}
    </Card>
  );
}

export function CardField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="sm" className="break-anywhere">
      <Text span c="dimmed" size="sm">
        {label}:{' '}
      </Text>
      {children}
    </Text>
  );
}
