// The socket that opens right after the page mounted (its own file: lib/realtime keeps one socket per page).
import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { apiQuery, createQueryClient, usePollWhileDisconnected } from "./query";

/** The page's socket (lib/realtime), opened and closed by the test. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(): void {}
  close(): void {}
}

const POLL_MS = 2000;

function Count() {
  const query = useQuery({
    ...apiQuery<{ count: number }>("/api/count"),
    refetchInterval: usePollWhileDisconnected([["/api/count"]], POLL_MS),
  });
  return <p data-testid="count">{query.data?.count ?? "loading"}</p>;
}

const pause = (ms: number) => act(() => new Promise((resolve) => window.setTimeout(resolve, ms)));

describe("usePollWhileDisconnected on a socket that opens at once", () => {
  it("asks nothing again: the page's data is fresh (issue 13)", async () => {
    vi.stubGlobal("WebSocket", FakeSocket);
    const fetch = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ count: 1 }), { headers: { "Content-Type": "application/json" } })),
    );
    vi.stubGlobal("fetch", fetch);
    render(
      <QueryClientProvider client={createQueryClient(vi.fn())}>
        <Count />
      </QueryClientProvider>,
    );
    // The page's socket opens at once: only the mount's own read, no catch-up.
    act(() => FakeSocket.all[0]?.onopen?.());
    await waitFor(() => expect(screen.getByTestId("count").textContent).toBe("1"));
    await pause(300);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
