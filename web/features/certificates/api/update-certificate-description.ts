/** PUT /api/organizations/{id}/certificates/{dn}/description: the body is the description as a JSON string. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Certificate } from '../../../../common/schemas/certificate';
import { api } from '../../../lib/api';
import { certificateKeys, certificatePath, type CertificateRef } from './keys';

/**
 * lib/api.ts sends a plain string as text/plain; an object whose toJSON is the string is sent as
 * application/json and serializes to exactly that JSON string, which is what the contract says.
 */
const asJsonString = (text: string) => ({ toJSON: () => text });

function updateCertificateDescription({ description, ...ref }: CertificateRef & { description: string }) {
  return api<Certificate>(`${certificatePath(ref.organizationId, ref.dn)}/description`, {
    method: 'PUT',
    body: asJsonString(description),
  });
}

export function useUpdateCertificateDescription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCertificateDescription,
    onSuccess: (certificate, ref) => {
      queryClient.setQueryData(certificateKeys.detail(ref.organizationId, ref.dn), certificate);
      return queryClient.invalidateQueries({ queryKey: certificateKeys.lists() });
    },
  });
}
