/** POST /api/approve/{dn}: approve a Not-approved certificate (its own organization is the target). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { certificateKeys, type CertificateRef } from './keys';

function approveCertificate({ dn }: CertificateRef): Promise<void> {
  return api<void>(`/api/approve/${encodeURIComponent(dn)}`, { method: 'POST' });
}

export function useApproveCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveCertificate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: certificateKeys.all }),
  });
}
