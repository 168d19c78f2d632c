/**
 * Bulk actions of a license list (components/bulk, docs/decisions.md "Bulk actions"): the rows'
 * selection, and Approve (as requested), Reject and 'No renew' (acknowledge expiry) where a selected
 * row allows it (the caller's `abilities`, the state of common/status.ts, as the details page decides).
 */
import { useMemo, useRef } from 'react';
import type { License } from '../../../../common/schemas/license';
import type { LicenseBulkAction, LicenseBulkResult } from '../../../../common/schemas/bulk';
import type { Action } from '../../../../common/policy';
import { licenseStatus } from '../../../../common/status';
import type { BulkAction, BulkActionsProps } from '../../../components/bulk/BulkActions';
import { matchOf } from '../../../components/bulk/run-bulk';
import { selectionScope, useRowSelection } from '../../../components/bulk/useRowSelection';
import { previewLicenseBulk } from '../api/preview-license-bulk';
import { runLicenseBulk, useLicensesChanged } from '../api/run-license-bulk';

type Result = LicenseBulkResult['results'][number];

const ACTIONS: Array<{ key: LicenseBulkAction; label: string; done: string; ability: Action; state: 'can_approve' | 'can_reject' | 'can_acknowledge_expiry'; destructive?: boolean }> = [
  { key: 'approve', label: 'Approve', done: 'approved', ability: 'license.approve', state: 'can_approve' },
  { key: 'acknowledge-expiry', label: 'No renew', done: 'acknowledged (no renewal)', ability: 'license.acknowledgeExpiry', state: 'can_acknowledge_expiry' },
  { key: 'reject', label: 'Reject', done: 'rejected', ability: 'license.reject', state: 'can_reject', destructive: true },
];

const keyOf = (l: License) => l.license_id;
const labelOf = (l: License) => `Select ${l.license_name}`;

/** The selection, and the bar's props; `selectable` is false for a caller who may take none of the actions here. */
export function useLicenseBulk(organizationId: string | null, request: object, total: number, rows: License[], now: Date, stale: boolean) {
  const selection = useRowSelection(keyOf, labelOf, selectionScope(request), stale);
  const changed = useLicensesChanged();
  const match = useMemo(() => matchOf(request, organizationId), [request, organizationId]);
  const actions = useMemo<BulkAction<License>[]>(
    () => ACTIONS.map((a) => ({ key: a.key, label: a.label, done: a.done, destructive: a.destructive, allowed: (l) => l.abilities.includes(a.ability), applies: (l) => l.abilities.includes(a.ability) && licenseStatus(l, now)[a.state] })),
    [now],
  );
  // Names of the rows seen, for refused items, whose answer names no license (the selection is empty by then).
  const names = useRef(new Map<string, string>()).current;
  for (const l of rows) names.set(l.license_id, l.license_name);
  const selectable = rows.some((l) => ACTIONS.some((a) => l.abilities.includes(a.ability)));
  const bar: BulkActionsProps<License, Result> = {
    noun: { one: 'license', many: 'licenses' },
    selection,
    total,
    rows,
    actions,
    api: {
      preview: (action) => previewLicenseBulk(action as LicenseBulkAction, match),
      send: (action, body) => runLicenseBulk(action as LicenseBulkAction, body),
      match,
      // The version the screen showed: a license changed since is refused, not decided on unseen data.
      item: (l) => ({ license_id: l.license_id, version: l.version }),
      name: (r) => r.license_name ?? names.get(r.license_id) ?? r.license_id,
      onFinished: changed,
    },
  };
  return { selectable, table: selection.table, bar };
}
