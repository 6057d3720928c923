import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "./query";
import { Toaster } from "./toast";
import { acceptFailed, accepted, acceptedWithoutDates, useAcceptRequest, type AcceptOutcome } from "./useAcceptRequest";

const PATH = "/api/service-requests/7/accept";

/** The accept answers `status` with `body`; returns the recorded calls. */
function answer(status: number, body: unknown) {
  const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(() =>
    Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } })),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

function Accept({ onSettled }: { onSettled: (outcome: AcceptOutcome) => void }) {
  const { accept, accepting, error, unavailable } = useAcceptRequest({ onSettled });
  return (
    <>
      <button type="button" onClick={() => void accept(7)} disabled={accepting !== null}>
        {accepting === 7 ? "Accepting..." : "Accept"}
      </button>
      <button type="button" onClick={() => void accept(7, { skipUnavailable: true })}>
        Accept without those dates
      </button>
      <p data-testid="error">{error}</p>
      <p data-testid="unavailable">{unavailable.join(",")}</p>
      <Toaster />
    </>
  );
}

function renderAccept(onSettled = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient(vi.fn())}>
      <Accept onSettled={onSettled} />
    </QueryClientProvider>,
  );
  return onSettled;
}

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});

describe("useAcceptRequest", () => {
  it("accepts, says so in the spec's words, and lets the page read what changed", async () => {
    const calls = answer(201, { id: 3 });
    const onSettled = renderAccept();
    fireEvent.click(screen.getByRole("button", { name: "Accept" }));
    expect(await screen.findByText(accepted())).toBeTruthy();
    await waitFor(() => expect(onSettled).toHaveBeenCalledWith({ accepted: true }));
    expect(calls.mock.calls[0]?.[0]).toBe(PATH);
    expect(calls.mock.calls[0]?.[1].body).toBe("{}");
    expect(screen.getByRole("button", { name: "Accept" })).toHaveProperty("disabled", false);
  });

  it("shows a refusal the helper can act on as the server words it, with the dates she cannot make", async () => {
    answer(409, {
      message: "You cannot make 2 of these visits.",
      errors: { unavailableDates: ["2026-12-01", "2026-12-08"] },
    });
    const onSettled = renderAccept();
    fireEvent.click(screen.getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(screen.getByTestId("error").textContent).toBe("You cannot make 2 of these visits."));
    expect(screen.getByTestId("unavailable").textContent).toBe("2026-12-01,2026-12-08");
    expect(onSettled).toHaveBeenCalledWith({ accepted: false, status: 409 });
  });

  it("says the spec's failure for anything else, never the server's own text", async () => {
    answer(500, { message: "Internal error in the booking service" });
    renderAccept();
    fireEvent.click(screen.getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(screen.getByTestId("error").textContent).toBe(acceptFailed()));
  });

  it("accepts a series without the dates she cannot make when asked to", async () => {
    const calls = answer(201, { id: 3 });
    renderAccept();
    fireEvent.click(screen.getByRole("button", { name: "Accept without those dates" }));
    expect(await screen.findByText(acceptedWithoutDates())).toBeTruthy();
    expect(calls.mock.calls[0]?.[1].body).toBe(JSON.stringify({ skipUnavailable: true }));
  });
});
