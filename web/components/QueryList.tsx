/**
 * A list query in each of its states: loading, failed, empty, or the rows. For a list shown whole
 * (or up to the API's limit); PagedList adds the paging.
 */
import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { Loading } from './Loading';

/** The rows, or a page of them with the total (X-Total-Count). */
type ListData = unknown[] | { total: number };

export interface QueryListProps<D extends ListData> {
  /** The list query (TanStack Query). */
  query: { data?: D; isPending: boolean; isError: boolean };
  /** What the rows are, plural and lower case: "resources". */
  noun: string;
  /** Default "The {noun} could not be loaded." */
  errorText?: string;
  /** Default "No {noun} found." */
  emptyText?: string;
  children: (data: D) => ReactNode;
}

const isEmpty = (data: ListData) => (Array.isArray(data) ? data.length === 0 : data.total === 0);

export function QueryList<D extends ListData>({ query, noun, errorText, emptyText, children }: QueryListProps<D>) {
  const { data, isPending, isError } = query;
  if (isPending) return <Loading />;
  if (isError && !data) return <Text>{errorText ?? `The ${noun} could not be loaded.`}</Text>;
  if (!data || isEmpty(data)) return <Text>{emptyText ?? `No ${noun} found.`}</Text>;
  return <>{children(data)}</>;
}
