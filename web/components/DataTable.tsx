/**
 * A list's table, scrolling sideways in its own box below `minWidth`, drawn as Mantine's Table
 * (DataTable.module.css) but of plain elements. For the lists of a first screen: Mantine's Table
 * brings its ScrollContainer, and with it ScrollArea and floating-ui (about 20 KB gzipped), and a
 * Mantine component per cell costs render time on a page of 100 rows. Cells are <th>/<td>.
 */
import type { CSSProperties, ReactNode } from 'react';
import classes from './DataTable.module.css';

export interface DataTableProps {
  /** The table's accessible name. */
  label: string;
  minWidth: number;
  children: ReactNode;
}

export function DataTable({ label, minWidth, children }: DataTableProps) {
  return (
    <div className={classes.scroll}>
      <table className={classes.table} aria-label={label} style={{ '--data-table-min-width': `${minWidth / 16}rem` } as CSSProperties}>
        {children}
      </table>
    </div>
  );
}
