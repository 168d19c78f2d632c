/** A new key's secret, shown this once with Copy and a ready curl example; the portal keeps no way to show it again. */
import { Button, Code, Modal, Stack, Text } from '@mantine/core';
import { ShownOnceValue, ShownOnceWarning } from '../../components/ShownOnce';
import type { CreatedApiKey } from './api';

export function ApiKeySecretModal({ shown, onClose }: { shown: CreatedApiKey | null; onClose: () => void }) {
  const curl = shown
    ? `curl -H "Authorization: Bearer ${shown.secret}" \\\n  ${window.location.origin}/api/organizations/${shown.organization_id}/certificates`
    : '';
  return (
    <Modal opened={!!shown} onClose={onClose} title="API key created" size="lg" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      {shown ? (
        <Stack gap="md">
          <ShownOnceWarning>
            Copy the key now and store it where your automation keeps secrets. The portal cannot show it again; if it is lost, create a new key and revoke this one.
          </ShownOnceWarning>
          <ShownOnceValue label={`Key '${shown.name}'`} value={shown.secret} minRows={2} />
          <Text size="sm">Use it as a bearer token, for example:</Text>
          {/* Wrapped rather than scrolled: a scrolling block would need a tab stop of its own. */}
          <Code block aria-label="curl example" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {curl}
          </Code>
          <Button variant="default" onClick={onClose} style={{ alignSelf: 'flex-end' }}>
            Done
          </Button>
        </Stack>
      ) : null}
    </Modal>
  );
}
