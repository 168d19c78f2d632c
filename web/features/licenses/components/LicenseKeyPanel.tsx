/**
 * The license key of an approved license (SPEC.md §2): shown in full, wrapping, and copied to
 * the clipboard with the 3-second toast of SPEC.md §8/§9. Without the master secret the server
 * answers 503 with a message, which lib/api.ts shows; the panel says the key is unavailable.
 */
import { Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { ApiError } from '../../../lib/api';
import { notify, notifyError } from '../../../lib/notifications';
import { Loading } from '../../../components/Loading';
import { useLicenseKey } from '../api/get-license-key';

const COPIED_MESSAGE = 'Copied license key to clipboard';
const COPIED_TOAST_MS = 3000;

const KEY_STYLE = {
  fontFamily: 'var(--mantine-font-family-monospace)',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  wordBreak: 'break-all',
} as const;

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify({ message: COPIED_MESSAGE }, { autoClose: COPIED_TOAST_MS });
  } catch {
    notifyError('The browser did not allow copying. Select the key and copy it by hand.');
  }
}

export function LicenseKeyPanel({ licenseId }: { licenseId: string }) {
  const { data: key, isPending, error } = useLicenseKey(licenseId, { enabled: true });

  let body;
  if (isPending) body = <Loading label="Loading the license key…" />;
  else if (error || !key) {
    const reason = error instanceof ApiError ? error.message : 'The license key could not be loaded.';
    body = <Text size="sm">The license key is not available: {reason}</Text>;
  } else {
    body = (
      <Stack gap="sm">
        <Code block style={KEY_STYLE}>
          {key}
        </Code>
        <Group>
          <Button variant="light" leftSection={<IconCopy size={16} aria-hidden />} onClick={() => void copy(key)}>
            Copy license key
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="license-key-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="license-key-heading">
          License key
        </Title>
        {body}
      </Stack>
    </Card>
  );
}
