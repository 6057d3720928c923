// The socket that opens right after the page mounted (its own file: lib/realtime keeps one socket per page).
import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { FakeSocket, pause, renderCount } from "./test-socket";

const POLL_MS = 2000;

describe("usePollWhileDisconnected on a socket that opens at once", () => {
  it("asks nothing again: the page's data is fresh", async () => {
    vi.stubGlobal("WebSocket", FakeSocket);
    const fetch = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ count: 1 }), { headers: { "Content-Type": "application/json" } })),
    );
    vi.stubGlobal("fetch", fetch);
    renderCount(POLL_MS);
    // The page's socket opens at once: only the mount's own read, no catch-up.
    act(() => FakeSocket.all[0]?.onopen?.());
    await waitFor(() => expect(screen.getByTestId("count").textContent).toBe("1"));
    await pause(300);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
