import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ServiceRequest } from "../lib/types";
import { AskedForYou, SentToHelper, directState } from "./DirectRequest";

const NOW = Date.parse("2027-03-01T14:00:00Z");
const LATER = "2027-03-02T14:00:00Z";
const EARLIER = "2027-03-01T13:00:00Z";

function request(overrides: Partial<ServiceRequest> = {}): ServiceRequest {
  return {
    id: 7,
    title: "Tablet lessons",
    status: "open",
    circleRole: "organizer",
    requestedProvider: { id: 3, firstName: "Vera", lastName: "Lang" },
    directUntil: LATER,
    onlyRequestedProvider: false,
    declinedAt: null,
    declineReason: null,
    askedYou: false,
    ...overrides,
  } as ServiceRequest;
}

describe("directState", () => {
  it("is null for a request sent to nobody", () => {
    expect(directState(request({ requestedProvider: null, directUntil: null }), NOW)).toBeNull();
  });
  it("waits within the window and lapses after it", () => {
    expect(directState(request(), NOW)).toBe("waiting");
    expect(directState(request({ directUntil: EARLIER }), NOW)).toBe("lapsed");
  });
  it("stays with the helper for good when only they were asked", () => {
    expect(directState(request({ onlyRequestedProvider: true, directUntil: EARLIER }), NOW)).toBe("only");
  });
  it("is declined once they declined, whatever the window", () => {
    expect(directState(request({ declinedAt: EARLIER }), NOW)).toBe("declined");
  });
});

describe("what the circle and the helper read", () => {
  it("tells the circle the helper's reason", () => {
    render(<SentToHelper request={request({ declinedAt: EARLIER, declineReason: "Away that week." })} />);
    expect(screen.getByTestId("sent-to-helper").textContent).toBe(
      "Vera declined: Away that week. Open to all helpers.",
    );
  });
  it("says nothing to someone outside the circle", () => {
    const { container } = render(<SentToHelper request={request({ circleRole: null })} />);
    expect(container.innerHTML).toBe("");
  });
  it("marks a request asked of the viewer, only while it is theirs alone", () => {
    const { rerender } = render(<AskedForYou request={request({ askedYou: true, onlyRequestedProvider: true })} />);
    expect(screen.getByTestId("asked-for-you").textContent?.replace(/\s+/g, " ")).toBe(
      "Asked for you Only you can accept this request.",
    );
    rerender(<AskedForYou request={request({ askedYou: true, declinedAt: EARLIER })} />);
    expect(screen.queryByTestId("asked-for-you")).toBeNull();
  });
});
