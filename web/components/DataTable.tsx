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
 */
import type { CSSProperties, Key, ReactNode } from 'react';
import { VisuallyHidden } from '@mantine/core';
import classes from './DataTable.module.css';

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
}

const cellClass = (column: DataColumn<unknown>) =>
  [column.nowrap && classes.nowrap, column.breakAnywhere && 'break-anywhere', column.align === 'end' && classes.end].filter(Boolean).join(' ') || undefined;

export function DataTable<T>({ label, columns, rows, rowKey, minWidth, alignTop, fixedLayout, dense }: DataTableProps<T>) {
  const style = { '--data-table-min-width': `${minWidth / 16}rem` } as CSSProperties;
  return (
    // Focusable and named: the keyboard reaches columns out of view too (WCAG 2.1.1).
    <div className={classes.scroll} tabIndex={0} role="region" aria-label={label}>
      <table
        className={classes.table}
        role="table"
        aria-label={label}
        style={style}
        data-align-top={alignTop || undefined}
        data-fixed={fixedLayout || undefined}
        data-dense={dense || undefined}
      >
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column.header} scope="col" role="columnheader" style={column.width ? { width: column.width } : undefined} className={column.align === 'end' ? classes.end : undefined}>
                {column.headerHidden ? <VisuallyHidden component="span">{column.header}</VisuallyHidden> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={rowKey(row)} role="row">
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
  );
}
