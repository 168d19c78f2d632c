/**
 * Bulk actions of a pending tasks list (components/bulk, docs/decisions.md "Bulk actions"), the
 * approver's place to clear many requests: Approve (and Reject, for licenses) the waiting approvals,
 * Acknowledge expiry ('No renew') the expired ones. A row's state is its list's, so an action applies
 * where the row's `abilities` allow it; "all waiting" is the bulk route's "all that match" without
 * filters, which narrows to exactly the rows in that state.
 */
import { useMemo, useRef } from 'react';
import type { Action } from '../../../../common/policy';
import type { BulkAction, BulkActionsProps, BulkItemResult } from '../../../components/bulk/BulkActions';
import { useRowSelection } from '../../../components/bulk/useRowSelection';
import type { PendingKind } from './api/get-pending';
import { previewPendingBulk } from './api/preview-bulk';
import { runPendingBulk, usePendingChanged } from './api/run-bulk';
import type { PendingList } from './usePendingPages';

/** A row of the pending lists, as the bulk bar needs it. */
export interface BulkTask {
  key: string;
  name: string;
  abilities: readonly string[];
  /** The row as an item of the bulk request (a certificate's organization and DN, a license's id and version). */
  item: object;
}

type Def = { key: string; label: string; done: string; ability: Action; destructive?: boolean };

const ACTIONS: Record<PendingKind, Record<PendingList, Def[]>> = {
  approve: {
    certificates: [{ key: 'approve', label: 'Approve', done: 'approved', ability: 'certificate.approve' }],
    licenses: [
      { key: 'approve', label: 'Approve', done: 'approved', ability: 'license.approve' },
      { key: 'reject', label: 'Reject', done: 'rejected', ability: 'license.reject', destructive: true },
    ],
  },
  acknowledge: {
    certificates: [{ key: 'acknowledge-expiry', label: 'Acknowledge expiry', done: 'acknowledged', ability: 'certificate.acknowledgeExpiry' }],
    licenses: [{ key: 'acknowledge-expiry', label: 'No renew', done: 'acknowledged (no renewal)', ability: 'license.acknowledgeExpiry' }],
  },
};

type Result = BulkItemResult & { distinguished_name?: string; license_id?: string; license_name?: string | null };

export function usePendingBulk(kind: PendingKind, list: PendingList, total: number, tasks: BulkTask[]) {
  // No filters: the scope is the list itself, and each list is its own table, so its rows are never another's.
  const selection = useRowSelection<BulkTask>((t) => t.key, (t) => `Select ${t.name}`, `${kind} ${list}`, false);
  const changed = usePendingChanged(list);
  const defs = ACTIONS[kind][list];
  const actions = useMemo<BulkAction<BulkTask>[]>(
    () => defs.map((d) => ({ key: d.key, label: d.label, done: d.done, destructive: d.destructive, applies: (t) => t.abilities.includes(d.ability), allowed: (t) => t.abilities.includes(d.ability) })),
    [defs],
  );
  // Names of the rows seen, for refused licenses, whose answer names none.
  const names = useRef(new Map<string, string>()).current;
  for (const t of tasks) names.set(t.key, t.name);
  const bar: BulkActionsProps<BulkTask, Result> = {
    noun: list === 'certificates' ? { one: 'certificate', many: 'certificates' } : { one: 'license', many: 'licenses' },
    selection,
    total,
    rows: tasks,
    actions,
    listLabel: `${kind === 'approve' ? 'pending' : 'expired'} ${list}`,
    allLabel: (n) => `Select all ${n} waiting`,
    api: {
      preview: (action) => previewPendingBulk(list, action),
      send: (action, body) => runPendingBulk(list, action, body) as Promise<{ results: Result[]; remaining: number | null }>,
      match: {},
      item: (t) => t.item,
      name: (r) => r.distinguished_name ?? r.license_name ?? names.get(r.license_id ?? '') ?? r.license_id ?? '',
      onFinished: changed,
    },
  };
  const selectable = tasks.some((t) => defs.some((d) => t.abilities.includes(d.ability)));
  return { selectable, table: selection.table, bar };
}
