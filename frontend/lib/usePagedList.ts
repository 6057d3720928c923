// One page of a server-side list (an /api/... endpoint answering a bare array with the total in
// X-Total-Count): the page's rows, the total, and which page is shown. The server searches,
// filters and counts; the page only asks.
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import type { Page } from "./api";
import { pageQuery } from "./query";

export type PagedList<T> =
  | { state: "loading"; items: T[]; total: number | null }
  | { state: "error"; items: T[]; total: number | null }
  | { state: "ready"; items: T[]; total: number };

/** The value, once it has stopped changing for `ms` (a search box asks once typing pauses). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * `path` with `params` (empty values left out), `pageSize` rows at `offset`. A change of path or
 * params goes back to the first page. While a page loads the previous rows stay (state
 * "loading"), so the list does not jump. A page is a TanStack query (lib/query: keyed by the
 * path, then the parameters), so invalidating the path reloads it; a lost session is lib/query's.
 * `initial`, the first page as the server rendered it with the page, seeds the first question.
 */
export function usePagedList<T>(path: string, params: Record<string, string>, pageSize: number, initial?: Page<T>) {
  const key = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "")).toString();
  const [offset, setOffset] = useState(0);
  // A new question starts on the first page (React's "information from previous renders" pattern).
  const [lastKey, setLastKey] = useState(key);
  if (lastKey !== key) {
    setLastKey(key);
    if (offset !== 0) setOffset(0);
  }
  const [firstKey] = useState(key);
  const query = Object.fromEntries(new URLSearchParams(key));
  const page = useQuery({
    ...pageQuery<T>(path, { ...query, limit: String(pageSize), offset: String(offset) }),
    placeholderData: keepPreviousData,
    initialData: offset === 0 && key === firstKey ? initial : undefined,
  });

  // A page beyond the end (rows went away since): show the last page that has rows.
  const beyondEnd = page.data !== undefined && page.data.items.length === 0 && offset > 0 && page.data.total > 0;
  const lastOffset = beyondEnd ? Math.floor((page.data.total - 1) / pageSize) * pageSize : offset;
  useEffect(() => {
    if (lastOffset !== offset) setOffset(lastOffset);
  }, [lastOffset, offset]);

  const items = page.data?.items ?? [];
  const total = page.data?.total ?? null;
  const list: PagedList<T> =
    page.isFetching || beyondEnd || (page.isPending && !page.isError)
      ? { state: "loading", items, total }
      : page.isError || total === null
        ? { state: "error", items, total }
        : { state: "ready", items, total };

  const client = useQueryClient();
  const reload = useCallback(() => client.invalidateQueries({ queryKey: [path] }), [client, path]);

  return { list, offset, setOffset, pageSize, reload };
}
