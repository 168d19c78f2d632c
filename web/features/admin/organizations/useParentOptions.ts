/**
 * Parent choices (SPEC.md §5): the partners and the operator the caller can read, never a
 * customer and never the organization itself. The current parent stays listed even when the
 * caller's list does not hold it, so the selector never shows an empty value.
 */
import { useMemo } from 'react';
import { ALL_ORGANIZATIONS, useOrganizations } from '../../../api/get-organizations';
import type { ParentOption } from './OrganizationForm';

export function useParentOptions(exceptId: string | null, current?: ParentOption | null): ParentOption[] {
  // The sidebar asks for the same page, so this is usually in the cache already.
  const { data } = useOrganizations(ALL_ORGANIZATIONS);
  return useMemo(() => {
    const options = (data?.items ?? [])
      .filter((o) => o.organization_role !== 'CUSTOMER' && o.organization_id !== exceptId)
      .map((o) => ({ value: o.organization_id, label: o.organization_name }));
    if (current && !options.some((o) => o.value === current.value)) options.unshift(current);
    return options;
  }, [data, exceptId, current?.value, current?.label]);
}
