/** The new token, shown once, with a Copy button that says 'copied!' for 1 s (SPEC.md §8, §9). */
import { Stack, Text, Title } from '@mantine/core';
import { DAY, formatDate } from '../../../../common/dates';
import type { TokenRequest } from '../../../../common/schemas/token';
import { ShownOnceValue, ShownOnceWarning } from '../../../components/ShownOnce';

export function CreatedToken({ token, request, at }: { token: string; request: TokenRequest; at: number }) {
  return (
    <Stack gap="sm" maw={760} component="section" aria-labelledby="created-token-heading">
      <Title order={2} size="h4" id="created-token-heading">
        Token for {request.upn}
      </Title>
      <ShownOnceWarning>
        Copy the token now and keep it in the gateway's secret store. The portal does not keep it and cannot show it
        again; if it is lost, create a new one.
      </ShownOnceWarning>
      <Text size="sm">
        Group {request.groups.join(', ')}, valid {request.expires_in === 1 ? '1 day' : `${request.expires_in} days`} until{' '}
        {formatDate(at + request.expires_in * DAY)}.
      </Text>
      <ShownOnceValue label="Token" value={token} minRows={3} maxRows={10} />
    </Stack>
  );
}
