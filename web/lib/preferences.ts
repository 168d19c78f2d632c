/**
 * How a person likes the lists (issue 12 item 2): rows per page and compact rows, kept in this
 * browser's storage and shared by every list at once (useSyncExternalStore), also across tabs.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { readJson, writeJson } from './storage';

/** The page sizes the lists offer; the first screen's request (router prefetch) uses the same. */
export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
const DEFAULT_PAGE_SIZE: PageSize = 100;

const KEYS = { pageSize: 'portal.pageSize', compactRows: 'portal.compactRows' } as const;

const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEYS.pageSize || event.key === KEYS.compactRows) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
const changed = () => listeners.forEach((listener) => listener());

/** The stored page size, or the usual 100 (a value from an older app or an edited store is ignored). */
export function storedPageSize(): PageSize {
  const value = readJson<number>(KEYS.pageSize);
  return (PAGE_SIZES as readonly number[]).includes(value ?? 0) ? (value as PageSize) : DEFAULT_PAGE_SIZE;
}

const storedCompactRows = () => readJson<boolean>(KEYS.compactRows) === true;

export function usePageSize(): [PageSize, (size: PageSize) => void] {
  const size = useSyncExternalStore(subscribe, storedPageSize);
  const set = useCallback((next: PageSize) => {
    writeJson(KEYS.pageSize, next === DEFAULT_PAGE_SIZE ? null : next);
    changed();
  }, []);
  return [size, set];
}

export function useCompactRows(): [boolean, (on: boolean) => void] {
  const compact = useSyncExternalStore(subscribe, storedCompactRows);
  const set = useCallback((on: boolean) => {
    writeJson(KEYS.compactRows, on || null);
    changed();
  }, []);
  return [compact, set];
}
