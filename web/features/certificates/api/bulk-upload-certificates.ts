/**
 * POST /api/organizations/{id}/certificates/bulk: several PEM certificates in one text, each
 * uploaded as a single upload; the answer says per block whether it was uploaded or why not. A 400
 * for the whole text (none, more than 100 blocks, too large) names `certificates`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkUpload, BulkUploadResult } from '../../../../common/schemas/bulk-upload';
import { api } from '../../../lib/api';
import { certificateKeys, organizationCertificatesPath } from './keys';

function bulkUploadCertificates({ organizationId, upload }: { organizationId: string; upload: BulkUpload }) {
  return api<BulkUploadResult>(`${organizationCertificatesPath(organizationId)}/bulk`, { method: 'POST', body: upload });
}

export function useBulkUploadCertificates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkUploadCertificates,
    onSuccess: (result) => (result.uploaded > 0 ? queryClient.invalidateQueries({ queryKey: certificateKeys.lists() }) : undefined),
  });
}
