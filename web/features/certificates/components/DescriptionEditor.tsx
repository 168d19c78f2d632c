/** The description of a certificate: editable with Update for SUPERVISOR and APPROVER, else read-only. */
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import type { Certificate } from '../../../../common/schemas/certificate';
import { notifySuccess } from '../../../lib/notifications';
import { useUpdateCertificateDescription } from '../api/update-certificate-description';

export function DescriptionEditor({ certificate }: { certificate: Certificate }) {
  const mayEdit = certificate.abilities.includes('certificate.editDescription');
  const update = useUpdateCertificateDescription();
  const [text, setText] = useState(certificate.description);
  // A newer description from the server (after Update, or a refetch) replaces the text.
  useEffect(() => setText(certificate.description), [certificate.description]);

  if (!mayEdit) {
    return (
      <Text size="sm" className="break-anywhere" style={{ whiteSpace: 'pre-wrap' }}>
        {certificate.description || 'No description.'}
      </Text>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { organizationId: certificate.organization_id, dn: certificate.distinguished_name, description: text },
      { onSuccess: () => notifySuccess('Description updated.') },
    );
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <Textarea
          // The card's heading says "Description" already; the box still needs its name.
          aria-label="Description"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={1000}
        />
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={update.isPending} disabled={text === certificate.description}>
            Update
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
