/**
 * The signing secret of an endpoint, right after it was registered or rotated: shown this once,
 * with a Copy button and a warning; the portal keeps no way to show it again.
 */
import { Button, Modal, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../../common/dates';
import { ShownOnceValue, ShownOnceWarning } from '../../../components/ShownOnce';
import type { WebhookSecret } from '../api/webhook-mutations';

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
          <ShownOnceWarning>
            Copy the secret now and give it to the receiver. The portal cannot show it again; if it is lost, rotate the secret.
          </ShownOnceWarning>
          {previousUntil ? (
            <Text size="sm">The previous secret signs too until {formatDateTime(previousUntil)}, while the receiver switches over.</Text>
          ) : null}
          <ShownOnceValue
            label="Secret"
            value={shown.secret}
            minRows={2}
            actions={
              <Button variant="default" onClick={onClose}>
                Done
              </Button>
            }
          />
        </Stack>
      ) : null}
    </Modal>
  );
}
