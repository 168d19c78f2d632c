/** GET /api/organizations/{id}/certificates/{dn}: one certificate with its PEM and signature. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Certificate } from '../../../../common/schemas/certificate';
import { api } from '../../../lib/api';
import { certificateKeys, certificatePath, type CertificateRef } from './keys';

function getCertificate({ organizationId, dn }: CertificateRef, signal?: AbortSignal): Promise<Certificate> {
  return api<Certificate>(certificatePath(organizationId, dn), { signal });
}

const certificateQueryOptions = (ref: CertificateRef) =>
  queryOptions({
    queryKey: certificateKeys.detail(ref.organizationId, ref.dn),
    queryFn: ({ signal }) => getCertificate(ref, signal),
  });

export function useCertificate(ref: CertificateRef) {
  return useQuery({ ...certificateQueryOptions(ref), enabled: !!ref.organizationId && !!ref.dn });
}
