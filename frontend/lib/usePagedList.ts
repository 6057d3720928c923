// One page of a server-side list (an /api/... endpoint answering a bare array with the total in
// X-Total-Count): the page's rows, the total, and which page is shown. The server searches,
// filters and counts; the page only asks.
import { useCallback, useEffect, useRef, useState } from "react";
import { getPage, handleLoggedOut, isUnauthorizedError } from "./api";

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
 * "loading"), so the list does not jump; an answer that arrives after a newer question is dropped.
 */
export function usePagedList<T>(path: string, params: Record<string, string>, pageSize: number) {
  const key = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "")).toString();
  const [offset, setOffset] = useState(0);
  const [list, setList] = useState<PagedList<T>>({ state: "loading", items: [], total: null });
  const seq = useRef(0);
  // A new question starts on the first page (React's "information from previous renders" pattern).
  const [lastKey, setLastKey] = useState(key);
  if (lastKey !== key) {
    setLastKey(key);
    if (offset !== 0) setOffset(0);
  }

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setList((old) => ({ state: "loading", items: old.items, total: old.total }));
    const query = new URLSearchParams(key);
    query.set("limit", String(pageSize));
    query.set("offset", String(offset));
    try {
      const page = await getPage<T>(`${path}?${query.toString()}`);
      if (mine !== seq.current) return;
      // A page beyond the end (rows went away since): show the last page that has rows.
      if (page.items.length === 0 && offset > 0 && page.total > 0) {
        setOffset(Math.floor((page.total - 1) / pageSize) * pageSize);
        return;
      }
      setList({ state: "ready", items: page.items, total: page.total });
    } catch (error) {
      if (mine !== seq.current) return;
      if (isUnauthorizedError(error)) {
        handleLoggedOut();
        return;
      }
      setList((old) => ({ state: "error", items: old.items, total: old.total }));
    }
  }, [path, key, offset, pageSize]);

  useEffect(() => {
    void load();
  }, [load]);

  return { list, offset, setOffset, pageSize, reload: load };
}
