/** POST /api/organizations/{id}/certificates/{dn}/revoke: revocation is final. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { certificateKeys, certificatePath, type CertificateRef } from './keys';

function revokeCertificate(ref: CertificateRef): Promise<void> {
  return api<void>(`${certificatePath(ref.organizationId, ref.dn)}/revoke`, { method: 'POST' });
}

export function useRevokeCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeCertificate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: certificateKeys.all }),
  });
}
