/**
 * Mantine's Table that turns into one card per row on phones instead of scrolling sideways:
 * give every Table.Td a `data-label` with its column's name.
 */
import type { ReactNode } from 'react';
import { Table, type TableProps } from '@mantine/core';
import classes from './StackedTable.module.css';

export function StackedTable({ children, className, ...props }: TableProps & { children: ReactNode }) {
  return (
    <Table {...props} className={[classes.stacked, className].filter(Boolean).join(' ')}>
      {children}
    </Table>
  );
}
