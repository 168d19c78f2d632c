/**
 * What a list gives its bulk bar (BulkActions.tsx) and the bar's dialogs (bulk-actions-impl.tsx) read:
 * apart from both, so the lazily loaded dialogs do not import the bar that loads them.
 */
import type { RowSelection } from './useRowSelection';
import type { BulkBody, BulkRunResult } from './run-bulk';

export interface BulkAction<T> {
  /** The API's action: approve, revoke, acknowledge-expiry, reject. */
  key: string;
  label: string;
  /** Past participle for sentences: "approved". */
  done: string;
  /** The caller may take it on this row and its state allows it. */
  applies: (row: T) => boolean;
  /** The caller may take it on this row (its `abilities`), whatever its state: offered for "all that match". */
  allowed: (row: T) => boolean;
  /** Takes something away: an outlined red button (Revoke, Reject). */
  destructive?: boolean;
}

export interface BulkItemResult {
  outcome: 'done' | 'refused' | 'failed';
  status: number;
  message: string;
}

interface BulkApi<T, R extends BulkItemResult> {
  /** How many rows match the list's filters, and how many the action would act on ("all that match"). */
  preview: (action: string) => Promise<{ matching: number; actionable: number }>;
  send: (action: string, body: BulkBody) => Promise<BulkRunResult<R>>;
  /** The list's filters as "all that match" (run-bulk.ts matchOf). */
  match: Record<string, string>;
  /** A row as an item of the request. */
  item: (row: T) => object;
  /** What a result is called in the answer's list. */
  name: (result: R) => string;
  /** After a run: the lists it changed are read again. */
  onFinished: () => void;
}

export interface BulkActionsProps<T, R extends BulkItemResult> {
  noun: { one: string; many: string };
  selection: RowSelection<T>;
  /** Rows that match the list's filters (X-Total-Count). */
  total: number;
  /** The rows on screen: for "all that match", the actions the caller may take on some of them are offered. */
  rows: T[];
  actions: BulkAction<T>[];
  api: BulkApi<T, R>;
  /** Where a screen has several lists: which one ("Certificate approvals"), in the bar's name. */
  listLabel?: string;
  /** The offer to choose every matching row; "Select all 1,101 that match the filter" unless given. */
  allLabel?: (total: string) => string;
}
