import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ServiceRequest } from "../lib/types";
import { AskedForYou, AwayWarning, SentToHelper, datesAway, datesOutsideHours, directState } from "./DirectRequest";

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

describe("AwayWarning", () => {
  const away = [{ firstDay: "2027-03-09", lastDay: "2027-03-10" }];
  const series = ["2027-03-02", "2027-03-09", "2027-03-16"];

  it("finds the visits on the helper's time off", () => {
    expect(datesAway(series, away)).toEqual(["2027-03-09"]);
    expect(datesAway(["2027-03-11"], away)).toEqual([]);
  });
  it("names the dates she is away and that she may accept the others", () => {
    render(<AwayWarning name="Vera" dates={series} away={away} />);
    expect(screen.getByTestId("asked-away").textContent).toBe(
      "Vera is away (time off) on Tue Mar 9. Vera can accept the other visits without that date, and you will be told; or choose other dates.",
    );
  });
  it("asks for other dates when she can make none, and says nothing when she can make all", () => {
    const { unmount } = render(<AwayWarning name="Vera" dates={["2027-03-10"]} away={away} />);
    expect(screen.getByTestId("asked-away").textContent).toContain("Vera cannot make this visit");
    unmount();
    render(<AwayWarning name="Vera" dates={["2027-03-02"]} away={away} />);
    expect(screen.queryByTestId("asked-away")).toBeNull();
  });
});

describe("datesOutsideHours", () => {
  // Tuesdays 8 AM to 5 PM only (weekday 1).
  const hours = [{ weekday: 1, startTime: "08:00", endTime: "17:00" }];

  it("finds the visits outside her weekly windows", () => {
    expect(datesOutsideHours(["2027-03-02", "2027-03-07"], hours, "08:00", 60)).toEqual(["2027-03-07"]); // a Sunday
    expect(datesOutsideHours(["2027-03-02"], hours, "17:00", 60)).toEqual(["2027-03-02"]); // the evening
    expect(datesOutsideHours(["2027-03-02"], hours, "12:00", 300)).toEqual([]); // noon to 5 PM fits
  });
  it("finds none when she has set no hours (any time)", () => {
    expect(datesOutsideHours(["2027-03-07"], [], "17:00", 60)).toEqual([]);
  });
  it("is named in the warning", () => {
    render(<AwayWarning name="Vera" dates={["2027-03-02", "2027-03-07"]} away={[]} outside={["2027-03-07"]} />);
    expect(screen.getByTestId("asked-away").textContent).toBe(
      "Vera does not work at that time on Sun Mar 7. Vera can accept the other visits without that date, and you will be told; or choose other dates.",
    );
  });
});
