import { QueryClientProvider, useMutation, useQuery, type QueryClient } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { useEffect, type ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "./api";
import { apiQuery, createQueryClient, useSeededQuery } from "./query";
import { Toaster } from "./toast";

const JSON_TYPE = { "Content-Type": "application/json" };

/** Answer every call to `path` with `status` and `body`; returns the recorded calls. */
function serve(routes: Record<string, { status: number; body: unknown }>) {
  const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>((url) => {
    const route = routes[url];
    if (!route) throw new Error(`unexpected call to ${url}`);
    return Promise.resolve(new Response(JSON.stringify(route.body), { status: route.status, headers: JSON_TYPE }));
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const UNAUTHORIZED = { status: 401, body: { message: "Unauthorized" } };

function withClient(client: QueryClient, children: ReactNode) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function Reader({ path }: { path: string }) {
  const query = useQuery(apiQuery<{ value: string }>(path));
  return <p data-testid={`read-${path}`}>{query.isError ? "failed" : (query.data?.value ?? "loading")}</p>;
}

/** Writes once on mount, as a save button would. */
function Writer({ path }: { path: string }) {
  const { mutate } = useMutation({ mutationFn: () => api.post(path, {}) });
  useEffect(() => mutate(), [mutate]);
  return null;
}

function Seeded({ initial }: { initial: { value: string } }) {
  const { data } = useSeededQuery("/api/thing", initial);
  return <p data-testid="seeded">{data.value}</p>;
}

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the page's QueryClient and a lost session", () => {
  // The only test that lets lib/api's handleLoggedOut run: it acts once a page (module).
  it("shows one 'Unauthorized' toast and goes to /login once, however many queries and mutations got a 401", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    serve({ "/api/a": UNAUTHORIZED, "/api/b": UNAUTHORIZED, "/api/c": UNAUTHORIZED });
    const client = createQueryClient();
    const toasted: unknown[] = [];
    const count = (event: Event) => toasted.push((event as CustomEvent).detail);
    window.addEventListener("kindly:toast", count);

    render(
      withClient(
        client,
        <>
          <Toaster />
          <Reader path="/api/a" />
          <Reader path="/api/b" />
          <Writer path="/api/c" />
        </>,
      ),
    );

    await waitFor(() => expect(screen.getByTestId("read-/api/b").textContent).toBe("failed"));
    expect(screen.getByTestId("read-/api/a").textContent).toBe("failed");
    await act(() => new Promise((resolve) => window.setTimeout(resolve, 50)));
    window.removeEventListener("kindly:toast", count);
    expect(toasted).toEqual([
      { title: "Unauthorized", description: "You are logged out. Logging in again...", variant: "destructive" },
    ]);
    const toasts = screen.getAllByTestId("toast");
    expect(toasts).toHaveLength(1);
    expect(toasts[0]?.textContent).toContain("Unauthorized");
    expect(toasts[0]?.textContent).toContain("You are logged out. Logging in again...");
    expect(toasts[0]?.dataset.variant).toBe("destructive");
    // After 0.5 s (spec section 9), once.
    expect(assign).not.toHaveBeenCalled();
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/login"));
    await act(() => new Promise((resolve) => window.setTimeout(resolve, 600)));
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it("reads the status, not the text: other failures are not a lost session", async () => {
    const lost = vi.fn();
    serve({
      "/api/forbidden": { status: 403, body: { message: "Unauthorized" } },
      "/api/broken": { status: 500, body: { message: "401: Unauthorized" } },
      "/api/gone": UNAUTHORIZED,
    });
    const client = createQueryClient(lost);
    render(
      withClient(
        client,
        <>
          <Reader path="/api/forbidden" />
          <Reader path="/api/broken" />
        </>,
      ),
    );
    await waitFor(() => expect(screen.getByTestId("read-/api/broken").textContent).toBe("failed"));
    await waitFor(() => expect(screen.getByTestId("read-/api/forbidden").textContent).toBe("failed"));
    expect(lost).not.toHaveBeenCalled();

    await expect(client.fetchQuery(apiQuery("/api/gone"))).rejects.toThrow();
    expect(lost).toHaveBeenCalledTimes(1);
    expect(lost).toHaveBeenCalledWith(undefined);
  });

  it("lets a call name where to sign in again, or tell the 401 its own way", async () => {
    const lost = vi.fn();
    serve({ "/api/pay": UNAUTHORIZED, "/api/admin-action": UNAUTHORIZED });
    const client = createQueryClient(lost);
    const cache = client.getMutationCache();

    await expect(
      cache
        .build(client, { mutationFn: () => api.post("/api/pay"), meta: { loginTarget: "/api/login" } })
        .execute(undefined),
    ).rejects.toThrow();
    expect(lost).toHaveBeenCalledWith("/api/login");

    await expect(
      cache
        .build(client, { mutationFn: () => api.put("/api/admin-action"), meta: { ownsUnauthorized: true } })
        .execute(undefined),
    ).rejects.toThrow();
    expect(lost).toHaveBeenCalledTimes(1);
  });
});

describe("the spec's defaults (section 9)", () => {
  it("does not retry, keeps data fresh for good and does not refetch on focus", async () => {
    const fetchMock = serve({
      "/api/fails": { status: 500, body: {} },
      "/api/ok": { status: 200, body: { value: "one" } },
    });
    const client = createQueryClient(vi.fn());
    const { unmount } = render(
      withClient(
        client,
        <>
          <Reader path="/api/fails" />
          <Reader path="/api/ok" />
        </>,
      ),
    );
    await waitFor(() => expect(screen.getByTestId("read-/api/fails").textContent).toBe("failed"));
    await waitFor(() => expect(screen.getByTestId("read-/api/ok").textContent).toBe("one"));
    unmount();
    render(withClient(client, <Reader path="/api/ok" />));
    act(() => {
      window.dispatchEvent(new Event("focus"));
      document.dispatchEvent(new Event("visibilitychange"));
    });
    expect(screen.getByTestId("read-/api/ok").textContent).toBe("one");
    expect(fetchMock.mock.calls.map(([url]) => url).sort()).toEqual(["/api/fails", "/api/ok"]);
  });
});

describe("useSeededQuery", () => {
  it("shows what the page rendered without asking, and the server's answer once invalidated", async () => {
    const fetchMock = serve({ "/api/thing": { status: 200, body: { value: "fresh" } } });
    const client = createQueryClient(vi.fn());
    render(withClient(client, <Seeded initial={{ value: "from the page" }} />));

    expect(screen.getByTestId("seeded").textContent).toBe("from the page");
    await act(() => new Promise((resolve) => window.setTimeout(resolve, 50)));
    expect(fetchMock).not.toHaveBeenCalled();

    await act(() => client.invalidateQueries({ queryKey: ["/api/thing"] }));
    await waitFor(() => expect(screen.getByTestId("seeded").textContent).toBe("fresh"));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
