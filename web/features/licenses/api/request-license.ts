/**
 * POST /api/organizations/{id}/licenses: request a license (SPEC.md §2 "/licenses/new"). A
 * duplicate name answers 409 and bad input 400, each with a message lib/api.ts shows.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { License, LicenseRequest } from '../../../../common/schemas/license';
import { api } from '../../../lib/api';
import { licenseKeys, organizationLicensesPath } from './keys';

function requestLicense({ organizationId, request }: { organizationId: string; request: LicenseRequest }) {
  return api<License>(organizationLicensesPath(organizationId), { method: 'POST', body: request });
}

export function useRequestLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestLicense,
    onSuccess: (license) => {
      queryClient.setQueryData(licenseKeys.detail(license.license_id), license);
      return queryClient.invalidateQueries({ queryKey: licenseKeys.lists() });
    },
  });
}
