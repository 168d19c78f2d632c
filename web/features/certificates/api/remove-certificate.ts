/** DELETE /api/organizations/{id}/certificates/{dn}: only a revoked certificate. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { certificateKeys, certificatePath, type CertificateRef } from './keys';

function removeCertificate(ref: CertificateRef): Promise<void> {
  return api<void>(certificatePath(ref.organizationId, ref.dn), { method: 'DELETE' });
}

export function useRemoveCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCertificate,
    onSuccess: (_, ref) => {
      // The details page is still open: refetching it now would answer 404 (and toast it).
      void queryClient.invalidateQueries({ queryKey: certificateKeys.detail(ref.organizationId, ref.dn), refetchType: 'none' });
      return queryClient.invalidateQueries({ queryKey: certificateKeys.lists() });
    },
  });
}
