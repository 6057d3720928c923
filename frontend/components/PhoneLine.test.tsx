import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { PhoneLine as Line } from "../lib/types";
import { PhoneLine } from "./PhoneLine";

function line(overrides: Partial<Line>): Line {
  return {
    setUp: true,
    available: false,
    reaches: "Clara",
    number: null,
    endsAt: null,
    message: "",
    confirmedByPhone: false,
    ...overrides,
  };
}

function show(data: Line) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(["/api/bookings/5/phone-line"], data);
  return render(
    <QueryClientProvider client={client}>
      <PhoneLine bookingId={5} />
    </QueryClientProvider>,
  );
}

describe("PhoneLine", () => {
  it("says a visit was confirmed by phone even where masked lines are not set up", () => {
    show(line({ setUp: false, confirmedByPhone: true }));
    expect(screen.getByTestId("confirmed-by-phone").textContent).toBe("Confirmed by phone");
    expect(screen.queryByTestId("phone-line")).toBeNull();
  });
  it("shows nothing without Twilio and without a phone confirmation", () => {
    const { container } = show(line({ setUp: false }));
    expect(container.innerHTML).toBe("");
  });
  it("shows the badge inside the call card when lines are set up", () => {
    show(line({ confirmedByPhone: true, message: "Ready." }));
    expect(screen.getByTestId("phone-line").textContent).toContain("Confirmed by phone");
  });
});
