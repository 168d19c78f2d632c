/** A key's state as the list shows it: Revoked, Expired, else Active; and Read only. */
import { Badge, Group } from '@mantine/core';
import type { ApiKey } from '../../../common/schemas/api-keys';

export function ApiKeyBadges({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  const state = apiKey.date_revoked ? ['Revoked', 'red'] : Date.parse(apiKey.date_expires) <= now ? ['Expired', 'orange'] : ['Active', 'teal'];
  return (
    <Group gap={4} wrap="wrap">
      <Badge color={state[1]} variant="light" size="sm">
        {state[0]}
      </Badge>
      {apiKey.read_only ? (
        <Badge color="gray" variant="light" size="sm">
          Read only
        </Badge>
      ) : null}
    </Group>
  );
}
