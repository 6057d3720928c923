// Server state: every island reads and writes through TanStack Query on one
// QueryClient per page, with the spec's defaults (section 9: no retries, data never stale, no
// refetch on focus or interval) and one handling of a lost session (section 8: a 401 from any
// query or mutation shows "Unauthorized" / "You are logged out. Logging in again..." once and
// goes to /login after 0.5 s).
//
// Keys are the API path, then the query's parameters: ["/api/admin/summary"],
// ["/api/admin/providers", {search, limit, offset}]; invalidating ["/api/admin/bookings"]
// reaches every page of that list. The page's props seed the cache (useSeededQuery); realtime
// events set or invalidate queries; the spec's polling intervals are a refetchInterval only
// while the socket is down (usePollWhileDisconnected).
//
//   const unread = useSeededQuery<UnreadCount>("/api/messages/unread-count", props.unread, {
//     refetchInterval: usePollWhileDisconnected([["/api/messages/unread-count"]], 5000),
//   });
//   useRealtimeEvent("unread.count", (u) => client.setQueryData(["/api/messages/unread-count"], u));
import {
  MutationCache,
  useMutation,
  QueryCache,
  QueryClient,
  QueryClientProvider,
  queryOptions,
  useQuery,
  useQueryClient,
  type QueryKey,
} from "@tanstack/react-query";
import { useEffect, useMemo, useRef, type ComponentType } from "react";
import { api, apiRequest, getPage, handleLoggedOut, isUnauthorizedError } from "./api";
import { mountIsland } from "./mount";
import { useConnected } from "./realtime";

/** What a query or mutation may tell the lost-session handling (its `meta`). */
export interface SessionMeta extends Record<string, unknown> {
  /** Where to sign in again (default /login; some pages use /api/login, spec section 8). */
  loginTarget?: string;
  /** The caller tells a 401 its own way (the admin's "Session expired", spec section 8). */
  ownsUnauthorized?: boolean;
}

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: SessionMeta;
    mutationMeta: SessionMeta;
  }
}

function sessionLost(error: unknown, meta: SessionMeta | undefined, onSessionLost: (target?: string) => void): void {
  if (!isUnauthorizedError(error) || meta?.ownsUnauthorized) return;
  onSessionLost(meta?.loginTarget);
}

/**
 * A QueryClient with the spec's defaults. `onSessionLost` runs for every 401; the default,
 * lib/api's handleLoggedOut, shows its toast and redirects once a page however many calls fail.
 */
export function createQueryClient(onSessionLost: (target?: string) => void = handleLoggedOut): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => sessionLost(error, query.meta, onSessionLost) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => sessionLost(error, mutation.meta, onSessionLost),
    }),
    defaultOptions: {
      queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false, refetchIntervalInBackground: true },
      mutations: { retry: false },
    },
  });
}

let pageClient: QueryClient | null = null;

/** The page's one QueryClient, shared by its islands (the page and the user menu). */
export function pageQueryClient(): QueryClient {
  pageClient ??= createQueryClient();
  return pageClient;
}

/** mountIsland inside the page's QueryClientProvider. */
export function mountQueryIsland<P extends object>(Component: ComponentType<P>, name: string): void {
  const client = pageQueryClient();
  mountIsland(Component, name, (island) => <QueryClientProvider client={client}>{island}</QueryClientProvider>);
}

/** A GET of `path` (answering T), keyed by the path. */
export function apiQuery<T>(path: string) {
  return queryOptions({ queryKey: [path], queryFn: () => api.get<T>(path) });
}

/** One page of a paged list (lib/api getPage): keyed by the path, then the parameters. */
export function pageQuery<T>(path: string, params: Record<string, string>) {
  return queryOptions({
    queryKey: [path, params],
    queryFn: () => getPage<T>(`${path}?${new URLSearchParams(params).toString()}`),
  });
}

/** A GET of `path` whose first answer the page rendered (`initial`, from the island's props). */
export function useSeededQuery<T extends NonNullable<unknown>>(
  path: string,
  initial: T,
  options: { refetchInterval?: number | false } = {},
) {
  return useQuery({
    queryKey: [path],
    queryFn: () => api.get<T>(path),
    initialData: initial,
    refetchInterval: options.refetchInterval,
  });
}

/**
 * The spec's polling (section 9) as a fallback: `intervalMs` while the page's socket is down,
 * false while it is up (events keep the data fresh). Each time the socket opens, the first time
 * included, `keys` are refetched: an event published while it was down (or, on the first open,
 * between the page's render and the socket's open) reached nobody, so the data is read again
 * once. Use as a query's refetchInterval.
 */
export function usePollWhileDisconnected(keys: readonly QueryKey[], intervalMs: number): number | false {
  const connected = useConnected();
  const client = useQueryClient();
  const latestKeys = useRef(keys);
  const wasDown = useRef(!connected);
  useEffect(() => {
    latestKeys.current = keys;
  });
  useEffect(() => {
    if (!connected) {
      wasDown.current = true;
      return;
    }
    if (!wasDown.current) return;
    wasDown.current = false;
    for (const queryKey of latestKeys.current) void client.invalidateQueries({ queryKey });
  }, [connected, client]);
  return connected ? false : intervalMs;
}

interface Write {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
}

/**
 * Writes as TanStack mutations (so a 401 is the client's lost-session handling): api's post,
 * put, patch and delete, answering as they do. After a success the `invalidates` keys are asked
 * again (before the call resolves); callers that refresh in their own order pass none.
 */
export function useApiWrite(invalidates: readonly QueryKey[] = [], meta?: SessionMeta) {
  const client = useQueryClient();
  const { mutateAsync, isPending } = useMutation({
    mutationFn: ({ method, path, body }: Write) => apiRequest(method, path, body),
    meta,
    onSuccess: () => Promise.all(invalidates.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
  // The same functions every render (mutateAsync is stable), so callbacks may depend on them.
  const calls = useMemo(
    () => ({
      post: <T = unknown,>(path: string, body?: unknown) =>
        mutateAsync({ method: "POST", path, body: body ?? {} }) as Promise<T>,
      put: <T = unknown,>(path: string, body?: unknown) =>
        mutateAsync({ method: "PUT", path, body: body ?? {} }) as Promise<T>,
      patch: <T = unknown,>(path: string, body?: unknown) =>
        mutateAsync({ method: "PATCH", path, body: body ?? {} }) as Promise<T>,
      delete: <T = unknown,>(path: string) => mutateAsync({ method: "DELETE", path }) as Promise<T>,
    }),
    [mutateAsync],
  );
  return { ...calls, isPending };
}
