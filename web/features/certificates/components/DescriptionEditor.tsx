/** The description of a certificate: editable with Update for SUPERVISOR and APPROVER, else read-only. */
import { useEffect } from 'react';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { z } from 'zod';
import { descriptionSchema, type Certificate } from '../../../../common/schemas/certificate';
import { applyServerError, useSchemaForm } from '../../../lib/forms';
import { notifySuccess } from '../../../lib/notifications';
import { useUpdateCertificateDescription } from '../api/update-certificate-description';

/** The form's one field; the body is the description itself (a JSON string), checked with the same schema. */
const valuesSchema = z.object({ description: descriptionSchema });

function DescriptionForm({ certificate }: { certificate: Certificate }) {
  const update = useUpdateCertificateDescription();
  const form = useSchemaForm(valuesSchema, { description: certificate.description });
  // A newer description from the server (after Update, or a refetch) replaces the text.
  const { setValues } = form;
  useEffect(() => setValues({ description: certificate.description }), [setValues, certificate.description]);

  const submit = ({ description }: { description: string }) => {
    update.mutate(
      { organizationId: certificate.organization_id, dn: certificate.distinguished_name, description },
      { onSuccess: () => notifySuccess('Description updated.'), onError: (error) => applyServerError(form, error) },
    );
  };

  return (
    <form onSubmit={form.onSubmit(submit)}>
      <Stack gap="sm">
        <Textarea
          // The card's heading says "Description" already; the box still needs its name.
          aria-label="Description"
          {...form.getInputProps('description')}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={1000}
        />
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={update.isPending} disabled={form.values.description === certificate.description}>
            Update
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function DescriptionEditor({ certificate }: { certificate: Certificate }) {
  if (!certificate.abilities.includes('certificate.editDescription')) {
    return (
      <Text size="sm" className="break-anywhere" style={{ whiteSpace: 'pre-wrap' }}>
        {certificate.description || 'No description.'}
      </Text>
    );
  }
  return <DescriptionForm certificate={certificate} />;
}
