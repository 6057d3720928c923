import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
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

const POLL_MS = 40;

function Count() {
  const query = useQuery({
    ...apiQuery<{ count: number }>("/api/count"),
    refetchInterval: usePollWhileDisconnected([["/api/count"]], POLL_MS),
  });
  return <p data-testid="count">{query.data?.count ?? "loading"}</p>;
}

const pause = (ms: number) => act(() => new Promise((resolve) => window.setTimeout(resolve, ms)));

afterEach(() => {
  vi.useRealTimers();
});

describe("usePollWhileDisconnected", () => {
  it("polls at the spec's interval only while the socket is down, and catches up when it opens", async () => {
    vi.stubGlobal("WebSocket", FakeSocket);
    let calls = 0;
    vi.stubGlobal(
      "fetch",
      vi.fn(() => {
        calls += 1;
        return Promise.resolve(
          new Response(JSON.stringify({ count: calls }), { headers: { "Content-Type": "application/json" } }),
        );
      }),
    );
    render(
      <QueryClientProvider client={createQueryClient(vi.fn())}>
        <Count />
      </QueryClientProvider>,
    );

    // Down (not open yet): asked again every POLL_MS.
    await waitFor(() => expect(Number(screen.getByTestId("count").textContent)).toBeGreaterThanOrEqual(3));

    // Open: one catch-up, then no polling (events keep the data fresh).
    const socket = FakeSocket.all[0];
    expect(socket?.url).toMatch(/\/ws\/events\/$/);
    const before = calls;
    act(() => socket?.onopen?.());
    await waitFor(() => expect(calls).toBe(before + 1));
    await pause(POLL_MS * 4);
    expect(calls).toBe(before + 1);

    // Down again: polling resumes.
    act(() => socket?.onclose?.({ code: 1006 }));
    await pause(POLL_MS * 4);
    expect(calls).toBeGreaterThanOrEqual(before + 3);
  });
});
