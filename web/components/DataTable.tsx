/**
 * The one list table: each row rendered once, laid out by CSS alone (DataTable.module.css) as a
 * table on wider screens (scrolling sideways in its own box below `minWidth`) and as one card per
 * row on phones, where each cell shows its column's name before its value. It stays a real table
 * for assistive technology at every width: <th scope="col"> headers (visually hidden on phones),
 * an optional row header (<th scope="row">), and explicit ARIA roles, because a browser may drop a
 * table's semantics when its rows are laid out as blocks.
 *
 * Plain elements with Mantine's table look, not Mantine's Table: that brings its ScrollContainer,
 * and with it ScrollArea and floating-ui (about 20 KB gzipped), and a Mantine component per cell
 * costs render time on a page of 100 rows (the certificate list is a first screen).
 *
 * Sorted by the server (docs/decisions.md "Sorting"): a column with a `sort` field has a button in
 * its header (pressed: ascending, pressed again: descending) and the header of the column the rows
 * are sorted by says so (`aria-sort`) and shows an arrow. On phones, where the headers are hidden,
 * a native select above the cards offers the same orders.
 */
import type { CSSProperties, Key, ReactNode } from 'react';
import { NativeSelect, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { useCompactRows } from '../lib/preferences';
import classes from './DataTable.module.css';
import { RowCheckbox, selectionClasses, type TableSelection } from './DataTableSelection';

export interface DataColumn<T> {
  /** The column's header, and the cell's label on phones. */
  header: string;
  cell: (row: T) => ReactNode;
  /**
   * The row's name (a <th scope="row">): on phones the card's title, without a label. At most one
   * column; put it first.
   */
  rowHeader?: boolean;
  /** On phones: no label before the value (badges under the title, say). */
  unlabelled?: boolean;
  /** The column's width on wider screens, a CSS length ('40%', '8rem'). */
  width?: string;
  /** Dates and numbers: never wrapped on wider screens. */
  nowrap?: boolean;
  /** Long words (DNs, email addresses, names) break anywhere rather than widen the table. */
  breakAnywhere?: boolean;
  align?: 'end';
  /** A header for screen readers only (a column of buttons); its cells get no label on phones. */
  headerHidden?: boolean;
  /** The field of the API's `sort` that orders the rows by this column (the list's own sorts). */
  sort?: string;
}

/** The list's order (useListSort): a field ascending, `-field` descending, and how to change it. */
export interface TableSort {
  order: string;
  onSort: (sort: string) => void;
  /**
   * The list's usual order when no column shows it (resources by ordinal, without an ordinal column):
   * offered in the phone's select, and where a header's descending order goes next.
   */
  usual?: { order: string; label: string };
}

export interface DataTableProps<T> {
  /** The table's accessible name (and its scroll box's). */
  label: string;
  columns: DataColumn<T>[];
  rows: T[];
  rowKey: (row: T) => Key;
  /** The width, in px, below which the table scrolls sideways on wider screens. */
  minWidth: number;
  /** Rows top-aligned (cells of several lines) instead of centred. */
  alignTop?: boolean;
  /** Column widths fixed by `width` (table-layout: fixed) instead of by the content. */
  fixedLayout?: boolean;
  /** Less space between rows (Mantine's verticalSpacing "xs"), for long lists of one-line rows. */
  dense?: boolean;
  /** The order of the rows, for a list whose columns have `sort` fields. */
  sort?: TableSort;
  /** Rows chosen for a bulk action: a checkbox first in each row (and card), one for the page in the header. */
  selection?: TableSelection<T>;
}

const cellClass = (column: DataColumn<unknown>) =>
  [column.nowrap && classes.nowrap, column.breakAnywhere && 'break-anywhere', column.align === 'end' && classes.end].filter(Boolean).join(' ') || undefined;

/** Where a column stands in the order: not sorted by it, or ascending or descending. */
function directionOf(column: DataColumn<unknown>, sort: TableSort | undefined): 'ascending' | 'descending' | undefined {
  if (!column.sort || !sort) return undefined;
  if (sort.order === column.sort) return 'ascending';
  return sort.order === `-${column.sort}` ? 'descending' : undefined;
}

/**
 * A sortable column's header: its name as a button that sorts by it, ascending first, then the other
 * way (then the usual order, when no column shows it).
 */
function SortButton({ column, sort }: { column: DataColumn<unknown>; sort: TableSort }) {
  const direction = directionOf(column, sort);
  const Arrow = direction === 'ascending' ? IconArrowUp : direction === 'descending' ? IconArrowDown : IconArrowsSort;
  return (
    <>
      {/* Phones: the header is read, not pressed (the select above the cards sorts). */}
      <span className={classes.phoneHeader}>{column.header}</span>
      <UnstyledButton
        className={classes.sortButton}
        data-active={direction ? true : undefined}
        onClick={() => sort.onSort(direction === 'ascending' ? `-${column.sort}` : direction === 'descending' && sort.usual ? sort.usual.order : column.sort!)}
      >
        {column.header}
        <Arrow size={14} stroke={2} aria-hidden className={classes.sortIcon} />
      </UnstyledButton>
    </>
  );
}

/** Phones: every order of the sortable columns, both ways, in a native select above the cards. */
function PhoneSort({ label, columns, sort }: { label: string; columns: DataColumn<unknown>[]; sort: TableSort }) {
  const data = [
    ...(sort.usual ? [{ value: sort.usual.order, label: sort.usual.label }] : []),
    ...columns
      .filter((column) => column.sort)
      .flatMap((column) => [
        { value: column.sort!, label: `${column.header}, ascending` },
        { value: `-${column.sort}`, label: `${column.header}, descending` },
      ]),
  ];
  return (
    <NativeSelect
      className={classes.phoneSort}
      label={`Sort ${label.toLowerCase()} by`}
      size="sm"
      data={data}
      value={sort.order}
      onChange={(event) => sort.onSort(event.currentTarget.value)}
    />
  );
}

export function DataTable<T>({ label, columns, rows, rowKey, minWidth, alignTop, fixedLayout, dense, sort, selection }: DataTableProps<T>) {
  const chosen = selection ? rows.filter(selection.isSelected).length : 0;
  const style = { '--data-table-min-width': `${minWidth / 16}rem` } as CSSProperties;
  // The person's "Compact rows" (lib/preferences.ts) makes every list dense.
  const [compact] = useCompactRows();
  const sortable = sort && columns.some((column) => column.sort) ? sort : undefined;
  return (
    <>
      {sortable ? <PhoneSort label={label} columns={columns as DataColumn<unknown>[]} sort={sortable} /> : null}
      {/* Focusable and named: the keyboard reaches columns out of view too (WCAG 2.1.1). */}
      <div className={classes.scroll} tabIndex={0} role="region" aria-label={label}>
        <table
          className={classes.table}
          role="table"
          aria-label={label}
          style={style}
          data-align-top={alignTop || undefined}
          data-fixed={fixedLayout || undefined}
          data-dense={dense || compact || undefined}
        >
          <thead role="rowgroup">
            <tr role="row">
              {selection ? (
                <th scope="col" role="columnheader" className={selectionClasses.header}>
                  <RowCheckbox
                    label="Select all on this page"
                    checked={rows.length > 0 && chosen === rows.length}
                    indeterminate={chosen > 0 && chosen < rows.length}
                    onChange={(on) => selection.onTogglePage(rows, on)}
                  />
                </th>
              ) : null}
              {columns.map((column) => (
                <th
                  key={column.header}
                  scope="col"
                  role="columnheader"
                  aria-sort={directionOf(column as DataColumn<unknown>, sortable)}
                  style={column.width ? { width: column.width } : undefined}
                  className={column.align === 'end' ? classes.end : undefined}
                >
                  {column.headerHidden ? (
                    <VisuallyHidden component="span">{column.header}</VisuallyHidden>
                  ) : sortable && column.sort ? (
                    <SortButton column={column as DataColumn<unknown>} sort={sortable} />
                  ) : (
                    column.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup">
            {rows.map((row) => (
              <tr key={rowKey(row)} role="row" className={selection ? selectionClasses.row : undefined} data-selected={selection?.isSelected(row) || undefined}>
                {selection ? (
                  <td role="cell" className={selectionClasses.cell}>
                    <RowCheckbox label={selection.label(row)} checked={selection.isSelected(row)} onChange={(on) => selection.onToggle(row, on)} />
                  </td>
                ) : null}
                {columns.map((column) =>
                  column.rowHeader ? (
                    <th key={column.header} scope="row" role="rowheader" className={cellClass(column as DataColumn<unknown>)}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td
                      key={column.header}
                      role="cell"
                      data-label={column.unlabelled || column.headerHidden ? undefined : column.header}
                      className={cellClass(column as DataColumn<unknown>)}
                    >
                      {/* One box beside the label on phones, whatever the cell holds. */}
                      <div className={classes.value}>{column.cell(row)}</div>
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
