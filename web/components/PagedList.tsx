/**
 * One page of a list: the states of QueryList, then the rows with the paging under them (and the
 * person's rows per page and compact rows: `pageSize` is usePageSize's). A page past the end (an
 * old link, rows removed meanwhile) says so and offers the pages there are.
 */
import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { ListPaging } from './ListPaging';
import { QueryList, type QueryListProps } from './QueryList';

export interface PagedListProps<T> extends Omit<QueryListProps<{ items: T[]; total: number }>, 'children'> {
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  children: (items: T[]) => ReactNode;
}

export function PagedList<T>({ page, pageSize, onPage, children, ...list }: PagedListProps<T>) {
  return (
    <QueryList {...list}>
      {({ items, total }) => (
        <>
          {items.length === 0 ? <Text>No {list.noun} on this page.</Text> : children(items)}
          <ListPaging total={total} count={items.length} page={page} pageSize={pageSize} onPage={onPage} noun={list.noun} adjustable />
        </>
      )}
    </QueryList>
  );
}
