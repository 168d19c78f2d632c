/**
 * POST /api/organizations/{id}/certificates: upload one PEM certificate. The server answers
 * 400 (not a certificate, a key, a chain…) or 409 (the DN exists) with a message about field
 * `certificate`, which the form shows under it (lib/forms.ts applyServerError).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Certificate, certificateUploadSchema } from '../../../../common/schemas/certificate';
import { api } from '../../../lib/api';
import { certificateKeys, organizationCertificatesPath } from './keys';

type CertificateUpload = z.input<typeof certificateUploadSchema>;

function uploadCertificate({ organizationId, upload }: { organizationId: string; upload: CertificateUpload }) {
  return api<Certificate>(organizationCertificatesPath(organizationId), { method: 'POST', body: upload });
}

export function useUploadCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadCertificate,
    onSuccess: (certificate) => {
      queryClient.setQueryData(certificateKeys.detail(certificate.organization_id, certificate.distinguished_name), certificate);
      return queryClient.invalidateQueries({ queryKey: certificateKeys.lists() });
    },
  });
}
