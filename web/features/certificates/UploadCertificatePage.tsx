/**
 * Upload a certificate (SPEC.md §2 "/certificates/upload", route Certificates.New). The server
 * checks the PEM; its 400/409 message arrives as a toast (lib/api.ts) and the form keeps the text.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, FileButton, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconFileUpload, IconUpload } from '@tabler/icons-react';
import { AnchorLink } from '../../components/Link';
import { MONOSPACE_TEXT_AREA } from '../../components/monospace';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { useAllowedHere } from '../../lib/actor';
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
  const [description, setDescription] = useState('');
  const [certificate, setCertificate] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    upload.mutate(
      { organizationId: orgId, upload: { description, certificate } },
      {
        onSuccess: (created) => {
          notifySuccess(`Certificate ${created.distinguished_name} uploaded.`);
          // Replace the form in the history: Back should not offer the same upload again.
          navigate(certificatesPath(orgId), { replace: true });
        },
      },
    );
  };

  const readFile = async (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      notifyError(`${file.name} is too large for a certificate.`);
      return;
    }
    setCertificate(await file.text());
  };

  return (
    <Page title="Upload certificate" subtitle={organization?.organization_name ?? '…'}>
      {organization && !mayUpload ? (
        <Text>Your roles in this organization do not allow uploading certificates.</Text>
      ) : (
      <form onSubmit={submit} aria-label="Upload certificate">
        <Stack gap="md" maw={760}>
          <TextInput
            label="Description"
            description="What the certificate is for, e.g. the gateway it belongs to."
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            maxLength={1000}
          />
          <Textarea
            label="Certificate"
            description="One X.509 certificate in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----."
            value={certificate}
            onChange={(event) => setCertificate(event.currentTarget.value)}
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
