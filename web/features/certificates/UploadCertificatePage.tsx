/**
 * Upload a certificate (SPEC.md §2 "/certificates/upload", route Certificates.New), checked with
 * the API's own schema (lib/forms.ts). The server checks the PEM: its 400, and the 409 of a DN
 * already in the portal, show under the Certificate field (lib/forms.ts); the form keeps the text.
 *
 * Several at once (issue 12 item 5, docs/decisions.md "Bulk upload"): the text area takes more than
 * one PEM block, pasted, or read from one or several files (picked, or dropped on it). With one
 * certificate the screen is the single upload; with more it calls the bulk upload and shows its
 * answer per certificate instead of the form.
 */
import { useState, type DragEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, FileButton, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { IconFileUpload, IconUpload } from '@tabler/icons-react';
import { certificateUploadSchema } from '../../../common/schemas/certificate';
import type { BulkUploadResult } from '../../../common/schemas/bulk-upload';
import { certificateBlockCount } from '../../../common/pem';
import { AnchorLink } from '../../components/Link';
import { MONOSPACE_TEXT_AREA } from '../../components/monospace';
import { NoPermission } from '../../components/NoPermission';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { useAllowedHere } from '../../lib/actor';
import { applyServerError, useSchemaForm } from '../../lib/forms';
import { notify, notifyError, notifySuccess } from '../../lib/notifications';
import { useUploadCertificate } from './api/upload-certificate';
import { useBulkUploadCertificates } from './api/bulk-upload-certificates';
import { BulkUploadResults, bulkSummary } from './components/BulkUploadResults';
import { certificatesPath } from './paths';

/** More than the server's limits is refused by the server with its message; this only stops huge files. */
const MAX_FILE_BYTES = 1024 * 1024;
/** The bulk upload's field is `certificates`; the form's is the one text area. */
const BULK_FIELDS = { certificates: 'certificate' } as const;

export default function UploadCertificatePage() {
  const { orgId, organization } = useRouteOrganization();
  const mayUpload = useAllowedHere('certificate.upload');
  const navigate = useNavigate();
  const upload = useUploadCertificate();
  const bulkUpload = useBulkUploadCertificates();
  const [bulkResult, setBulkResult] = useState<BulkUploadResult | null>(null);
  const form = useSchemaForm(certificateUploadSchema, { description: '', certificate: '' });

  const submit = (values: { description: string; certificate: string }) => {
    if (certificateBlockCount(values.certificate) > 1) {
      bulkUpload.mutate(
        { organizationId: orgId, upload: { description: values.description, certificates: values.certificate } },
        {
          onSuccess: (result) => {
            const summary = `Bulk upload: ${bulkSummary(result)}.`;
            if (result.refused === 0) notifySuccess(summary);
            else notify({ message: summary, severity: 'WARNING' });
            setBulkResult(result);
          },
          onError: (error) => applyServerError(form, error, BULK_FIELDS),
        },
      );
      return;
    }
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

  /** The files' texts, one after the other, replace the text area's (as one file's text did). */
  const readFiles = async (files: File[]) => {
    if (files.length === 0) return;
    const tooLarge = files.find((file) => file.size > MAX_FILE_BYTES);
    if (tooLarge) {
      notifyError(`${tooLarge.name} is too large for a certificate file.`);
      return;
    }
    const texts = await Promise.all(files.map((file) => file.text()));
    form.setFieldValue('certificate', texts.length === 1 ? texts[0] : texts.map((text) => text.trimEnd()).join('\n'));
  };
  // Files dropped on the text area are read, not opened by the browser; dropped text is left to the text area.
  const dropping = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const onDragOver = (event: DragEvent<HTMLTextAreaElement>) => {
    if (dropping(event)) event.preventDefault();
  };
  const onDrop = (event: DragEvent<HTMLTextAreaElement>) => {
    if (!dropping(event)) return;
    event.preventDefault();
    void readFiles([...event.dataTransfer.files]);
  };
  const blocks = certificateBlockCount(form.values.certificate);
  const several = blocks > 1 ? blocks : 0;
  const startOver = () => {
    form.reset();
    setBulkResult(null);
  };

  return (
    <Page title="Upload certificate" subtitle={organization?.organization_name ?? '…'}>
      {organization && !mayUpload ? (
        <NoPermission title="You may not upload certificates here" doing="Uploading a certificate" action="certificate.upload" />
      ) : bulkResult ? (
        <BulkUploadResults orgId={orgId} result={bulkResult} onMore={startOver} />
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
              description="One or more X.509 certificates in PEM form, each from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE----- (at most 100). Paste them, or drop .pem, .crt or .cer files here."
              {...form.getInputProps('certificate')}
              onDragOver={onDragOver}
              onDrop={onDrop}
              rows={30}
              wrap="off"
              spellCheck={false}
              autoComplete="off"
              styles={MONOSPACE_TEXT_AREA}
            />
            <Group justify="space-between" gap="sm" wrap="wrap">
              <FileButton multiple onChange={(files) => void readFiles(files)} accept=".pem,.crt,.cer,application/x-pem-file,text/plain">
                {(props) => (
                  <Button {...props} variant="default" leftSection={<IconFileUpload size={16} aria-hidden />}>
                    Read from files
                  </Button>
                )}
              </FileButton>
              <Group gap="sm" wrap="wrap">
                <AnchorLink to={certificatesPath(orgId)}>Cancel</AnchorLink>
                <Button type="submit" loading={upload.isPending || bulkUpload.isPending} leftSection={<IconUpload size={16} aria-hidden />}>
                  {several ? `Upload ${several} certificates` : 'Upload certificate'}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
    </Page>
  );
}
