/**
 * The signing secret of an endpoint, right after it was registered or rotated: shown this once,
 * with a Copy button and a warning; the portal keeps no way to show it again.
 */
import { Alert, Button, CopyButton, Group, Modal, Stack, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { formatDateTime } from '../../../../common/dates';
import { MONOSPACE_TEXT_AREA } from '../../../components/monospace';
import type { WebhookSecret } from '../api/webhook-mutations';

const COPIED_TIMEOUT_MS = 1000;

export interface SecretModalProps {
  /** The answer of the registration or rotation; null: closed. */
  shown: WebhookSecret | null;
  onClose: () => void;
}

export function SecretModal({ shown, onClose }: SecretModalProps) {
  const previousUntil = shown?.endpoint.previous_secret_until;
  return (
    <Modal opened={!!shown} onClose={onClose} title="Signing secret" size="lg" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      {shown ? (
        <Stack gap="md">
          <Text size="sm" className="break-anywhere">
            Deliveries to <strong>{shown.endpoint.url}</strong> are signed with this secret (the webhook-signature header of Standard Webhooks).
          </Text>
          <Alert color="orange" variant="light" title="Shown only once" icon={<IconAlertTriangle size={20} aria-hidden />}>
            Copy the secret now and give it to the receiver. The portal cannot show it again; if it is lost, rotate the secret.
          </Alert>
          {previousUntil ? (
            <Text size="sm">The previous secret signs too until {formatDateTime(previousUntil)}, while the receiver switches over.</Text>
          ) : null}
          <Textarea
            label="Secret"
            value={shown.secret}
            readOnly
            autosize
            minRows={2}
            styles={MONOSPACE_TEXT_AREA}
            spellCheck={false}
            onFocus={(event) => event.currentTarget.select()}
            className="break-anywhere"
          />
          <Group justify="space-between" gap="xs">
            <CopyButton value={shown.secret} timeout={COPIED_TIMEOUT_MS}>
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
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
