// The socket that opens right after the page mounted (its own file: lib/realtime keeps one socket per page).
import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { FakeSocket, pause, renderCount } from "./test-socket";

const POLL_MS = 2000;

describe("usePollWhileDisconnected on a socket that opens at once", () => {
  it("asks once more when it opens: what was published before it opened is not lost", async () => {
    vi.stubGlobal("WebSocket", FakeSocket);
    let count = 1;
    const fetch = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ count }), { headers: { "Content-Type": "application/json" } })),
    );
    vi.stubGlobal("fetch", fetch);
    renderCount(POLL_MS);
    await waitFor(() => expect(screen.getByTestId("count").textContent).toBe("1"));

    // Something changes and its event is published while the page's socket is still opening:
    // nobody receives it. The socket then opens, well within one polling interval.
    count = 2;
    act(() => FakeSocket.all[0]?.onopen?.());
    await waitFor(() => expect(screen.getByTestId("count").textContent).toBe("2"));
    await pause(300);
    // One catch-up read, then nothing more (events keep the data fresh while the socket is up).
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
