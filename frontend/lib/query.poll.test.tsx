import { act, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
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
  });
});
