/**
 * Upload a certificate (SPEC.md §2 "/certificates/upload", route Certificates.New), checked with
 * the API's own schema (lib/forms.ts). The server checks the PEM: its 400, and the 409 of a DN
 * already in the portal, show under the Certificate field (lib/forms.ts); the form keeps the text.
 */
import { useNavigate } from 'react-router';
import { Button, FileButton, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { IconFileUpload, IconUpload } from '@tabler/icons-react';
import { certificateUploadSchema } from '../../../common/schemas/certificate';
import { AnchorLink } from '../../components/Link';
import { MONOSPACE_TEXT_AREA } from '../../components/monospace';
import { NoPermission } from '../../components/NoPermission';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { useAllowedHere } from '../../lib/actor';
import { applyServerError, useSchemaForm } from '../../lib/forms';
import { notifyError, notifySuccess } from '../../lib/notifications';
import { useUploadCertificate } from './api/upload-certificate';
import { certificatesPath } from './paths';

/** More than the server's 64 KiB limit is refused by the server with its message; this only stops huge files. */
const MAX_FILE_BYTES = 1024 * 1024;

export default function UploadCertificatePage() {
  const { orgId, organization } = useRouteOrganization();
  const mayUpload = useAllowedHere('certificate.upload');
  const navigate = useNavigate();
  const upload = useUploadCertificate();
  const form = useSchemaForm(certificateUploadSchema, { description: '', certificate: '' });

  const submit = (values: { description: string; certificate: string }) => {
    upload.mutate(
      { organizationId: orgId, upload: values },
      {
        onSuccess: (created) => {
          notifySuccess(`Certificate ${created.distinguished_name} uploaded.`);
          // Replace the form in the history: Back should not offer the same upload again.
          navigate(certificatesPath(orgId), { replace: true });
        },
        onError: (error) => applyServerError(form, error),
      },
    );
  };

  const readFile = async (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      notifyError(`${file.name} is too large for a certificate.`);
      return;
    }
    form.setFieldValue('certificate', await file.text());
  };

  return (
    <Page title="Upload certificate" subtitle={organization?.organization_name ?? '…'}>
      {organization && !mayUpload ? (
        <NoPermission title="You may not upload certificates here" doing="Uploading a certificate" action="certificate.upload" />
      ) : (
        <form onSubmit={form.onSubmit(submit)} aria-label="Upload certificate">
          <Stack gap="md" maw={760}>
            <TextInput
              label="Description"
              description="What the certificate is for, e.g. the gateway it belongs to."
              {...form.getInputProps('description')}
              maxLength={1000}
            />
            <Textarea
              label="Certificate"
              description="One X.509 certificate in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----."
              {...form.getInputProps('certificate')}
              rows={30}
              wrap="off"
              spellCheck={false}
              autoComplete="off"
              styles={MONOSPACE_TEXT_AREA}
            />
            <Group justify="space-between" gap="sm" wrap="wrap">
              <FileButton onChange={(file) => void readFile(file)} accept=".pem,.crt,.cer,application/x-pem-file,text/plain">
                {(props) => (
                  <Button {...props} variant="default" leftSection={<IconFileUpload size={16} aria-hidden />}>
                    Read from a file
                  </Button>
                )}
              </FileButton>
              <Group gap="sm" wrap="wrap">
                <AnchorLink to={certificatesPath(orgId)}>Cancel</AnchorLink>
                <Button type="submit" loading={upload.isPending} leftSection={<IconUpload size={16} aria-hidden />}>
                  Upload certificate
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
    </Page>
  );
}
