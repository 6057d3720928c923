import { act, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLOSE_UNAUTHENTICATED } from "./realtime";
import { FakeSocket, pause, renderCount } from "./test-socket";

const POLL_MS = 40;

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
    renderCount(POLL_MS);

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

    // It tries again within a second (the backoff's first step)...
    await waitFor(() => expect(FakeSocket.all).toHaveLength(2), { timeout: 3000 });
    // ...and the server says she is signed out: polling goes on, the socket is never tried again
    // (nor is a timer left behind to try it after the test).
    const again = calls;
    act(() => FakeSocket.all[1]?.onclose?.({ code: CLOSE_UNAUTHENTICATED }));
    await pause(1500);
    expect(FakeSocket.all).toHaveLength(2);
    expect(calls).toBeGreaterThan(again);
  });
});
