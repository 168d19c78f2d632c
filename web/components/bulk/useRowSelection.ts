/**
 * The rows chosen for a bulk action (docs/decisions.md "Bulk actions"): kept across the list's
 * pages while its filters stay the same (`scope`), or "all that match the filter" at once. A change
 * of filters starts a new, empty selection: rows chosen under other filters may not be in view.
 * The scope is that of the rows on screen: while a list still shows its previous answer (`stale`, the
 * next one loading), a row chosen there belongs to the previous filters and is dropped when the new
 * answer arrives, so no action reaches rows that the filtered list does not show.
 */
import { useCallback, useMemo, useState } from 'react';
import type { TableSelection } from '../DataTableSelection';

export interface RowSelection<T> {
  /** The rows chosen one by one (empty while all that match are chosen). */
  rows: T[];
  /** Every row that matches the list's filters, beyond those on screen. */
  allMatching: boolean;
  /** For DataTable. */
  table: TableSelection<T>;
  selectAllMatching: () => void;
  clear: () => void;
}

interface State<T> {
  scope: string;
  chosen: Map<string, T>;
  all: boolean;
}

export function useRowSelection<T>(keyOf: (row: T) => string, label: (row: T) => string, requested: string, stale: boolean): RowSelection<T> {
  const [shown, setShown] = useState(requested);
  if (!stale && shown !== requested) setShown(requested);
  const scope = stale ? shown : requested;
  const [state, setState] = useState<State<T>>(() => ({ scope, chosen: new Map(), all: false }));
  const fresh = useCallback((s: State<T>): State<T> => (s.scope === scope ? s : { scope, chosen: new Map(), all: false }), [scope]);
  const current = fresh(state);

  const table = useMemo<TableSelection<T>>(() => ({
    isSelected: (row) => current.all || current.chosen.has(keyOf(row)),
    onToggle: (row, on) =>
      setState((s) => {
        const chosen = new Map(fresh(s).all ? [] : fresh(s).chosen);
        if (on) chosen.set(keyOf(row), row);
        else chosen.delete(keyOf(row));
        return { scope, chosen, all: false };
      }),
    onTogglePage: (rows, on) =>
      setState((s) => {
        const chosen = new Map(fresh(s).all ? [] : fresh(s).chosen);
        for (const row of rows) {
          if (on) chosen.set(keyOf(row), row);
          else chosen.delete(keyOf(row));
        }
        return { scope, chosen, all: false };
      }),
    label,
  }), [current, keyOf, label, fresh, scope]);

  return {
    rows: current.all ? [] : [...current.chosen.values()],
    allMatching: current.all,
    table,
    selectAllMatching: () => setState({ scope, chosen: new Map(), all: true }),
    clear: () => setState({ scope, chosen: new Map(), all: false }),
  };
}

/** The part of a list's request that decides which rows match (not the page, nor the order). */
export function selectionScope(request: object): string {
  const { offset: _offset, limit: _limit, sort: _sort, ...filters } = request as Record<string, unknown>;
  return JSON.stringify(filters);
}
