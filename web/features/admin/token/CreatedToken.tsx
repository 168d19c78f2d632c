/** The new token, shown once, with a Copy button that says 'copied!' for 1 s (SPEC.md §8, §9). */
import { Alert, Button, CopyButton, Group, Stack, Text, Textarea, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { DAY, formatDate } from '../../../../common/dates';
import type { TokenRequest } from '../../../../common/schemas/token';
import { MONOSPACE_TEXT_AREA } from '../../../components/monospace';

const COPIED_TIMEOUT_MS = 1000;

export function CreatedToken({ token, request, at }: { token: string; request: TokenRequest; at: number }) {
  return (
    <Stack gap="sm" maw={760} component="section" aria-labelledby="created-token-heading">
      <Title order={2} size="h4" id="created-token-heading">
        Token for {request.upn}
      </Title>
      <Alert color="orange" variant="light" title="Shown only once" icon={<IconAlertTriangle size={20} aria-hidden />}>
        Copy the token now and keep it in the gateway's secret store. The portal does not keep it and cannot show it
        again; if it is lost, create a new one.
      </Alert>
      <Text size="sm">
        Group {request.groups.join(', ')}, valid {request.expires_in === 1 ? '1 day' : `${request.expires_in} days`} until{' '}
        {formatDate(at + request.expires_in * DAY)}.
      </Text>
      <Textarea
        label="Token"
        value={token}
        readOnly
        autosize
        minRows={3}
        maxRows={10}
        styles={MONOSPACE_TEXT_AREA}
        spellCheck={false}
        onFocus={(event) => event.currentTarget.select()}
        className="break-anywhere"
      />
      <CopyButton value={token} timeout={COPIED_TIMEOUT_MS}>
        {({ copied, copy }) => (
          <Group gap="sm">
            <Button
              variant={copied ? 'light' : 'filled'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              onClick={copy}
            >
              {copied ? 'copied!' : 'Copy'}
            </Button>
            <VisuallyHidden role="status">{copied ? 'copied!' : ''}</VisuallyHidden>
          </Group>
        )}
      </CopyButton>
    </Stack>
  );
}
