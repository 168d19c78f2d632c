/**
 * The state of a license form (the request, and the details before approval): the draft, its
 * field errors, and a change that clears the errors of the fields it touches. The form starts
 * again from `initial` whenever that changes: a new version of the license after a refusal.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DraftErrors, LicenseDraft } from './license-draft';

export function useLicenseDraft(initial: LicenseDraft) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  useEffect(() => {
    setDraft(initial);
    setErrors({});
  }, [initial]);

  const change = useCallback((patch: Partial<LicenseDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch) as (keyof LicenseDraft)[]) delete next[key];
      return next;
    });
  }, []);

  return { draft, errors, setErrors, change };
}
