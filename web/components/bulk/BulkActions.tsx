/**
 * The bulk bar of a list (docs/decisions.md "Bulk actions"): shown while rows are selected, it says
 * how many, offers "Select all M that match the filter" and the actions the selected rows allow
 * (the caller's `abilities` and the state of common/status.ts), each confirmed with its count in the
 * app's ConfirmModal, then sent in requests of up to 1,000 and answered per item in a dialog. Its
 * code and Mantine's dialog styles load with the first selection (a chunk of their own).
 */
import { lazy, Suspense, useEffect, useState } from 'react';

export type { BulkAction, BulkActionsProps, BulkItemResult } from './types';
import type { BulkActionsProps, BulkItemResult } from './types';

const BulkActionsImpl = lazy(() => import('./bulk-actions-impl'));

export function BulkActions<T, R extends BulkItemResult>(props: BulkActionsProps<T, R>) {
  const selected = props.selection.allMatching || props.selection.rows.length > 0;
  // Once loaded it stays: its answer shows after the run has emptied the selection.
  const [used, setUsed] = useState(false);
  useEffect(() => {
    if (selected) setUsed(true);
  }, [selected]);
  if (!selected && !used) return null;
  return (
    <Suspense fallback={null}>
      <BulkActionsImpl {...(props as unknown as BulkActionsProps<unknown, BulkItemResult>)} />
    </Suspense>
  );
}
