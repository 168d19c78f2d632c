/** POST /api/organizations/{id}/certificates/{dn}/acknowledge-expiry. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { certificateKeys, certificatePath, type CertificateRef } from './keys';

function acknowledgeCertificateExpiry(ref: CertificateRef): Promise<void> {
  return api<void>(`${certificatePath(ref.organizationId, ref.dn)}/acknowledge-expiry`, { method: 'POST' });
}

export function useAcknowledgeCertificateExpiry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeCertificateExpiry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: certificateKeys.all }),
  });
}
