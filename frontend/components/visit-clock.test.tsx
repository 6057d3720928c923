import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { formatClock } from "../lib/format";
import type { Booking } from "../lib/types";
import { bookingStatusNote } from "./StatusBadge";
import { checkInByNote, ReportDetails, VisitProgress, type VisitReport } from "./VisitControls";

// An afternoon visit (12PM - 5PM) of an hour for a senior in Chicago: she must start by 4:00 PM there.
const visit = {
  status: "confirmed" as const,
  paymentStatus: "paid",
  scheduledTime: "afternoon" as const,
  checkInBy: "2026-01-15T22:00:00Z",
  checkedInAt: null,
  recipient: { timeZone: "America/Chicago" },
};

describe("the helper hears first", () => {
  it("tells the helper by when to check in, on the recipient's clock", () => {
    const by = formatClock(visit.checkInBy, "America/Chicago");
    expect(by.startsWith("4:00 PM")).toBe(true);
    expect(bookingStatusNote(visit, "provider")).toBe(`Paid and confirmed: please check in by ${by} at the latest`);
    expect(checkInByNote(visit)).toBe(
      `Please check in by ${by} at the latest, so the visit fits the time the family was told (Afternoon (12PM - 5PM)). After that they are told you are late.`,
    );
  });

  it("says nothing more once she has checked in, and the family's card stays calm", () => {
    const checkedIn = { ...visit, checkedInAt: "2026-01-15T20:00:00Z" };
    expect(bookingStatusNote(checkedIn, "provider")).toBe("Paid and confirmed: please visit as planned");
    expect(checkInByNote(checkedIn)).toBe("");
    expect(bookingStatusNote(visit, "client")).toBe("Paid and confirmed");
  });
});

describe("the family's card inside the window", () => {
  it("says the helper may still arrive, until when, and raises no alarm", () => {
    const booking = {
      id: 7,
      status: "confirmed",
      paymentStatus: "paid",
      scheduledTime: "afternoon",
      visitStart: "2026-01-15T18:00:00Z",
      checkInBy: "2026-01-15T22:00:00Z",
      checkedInAt: null,
      checkedOutAt: null,
      hasReport: false,
      visitState: "upcoming",
      recipient: { id: 1, firstName: "Clara", lastName: "", timeZone: "America/Chicago" },
      serviceRequest: { title: "Wellness check" },
    } as unknown as Booking;
    render(<VisitProgress booking={booking} now={Date.parse("2026-01-15T20:00:00Z")} />);
    const by = formatClock(booking.checkInBy, "America/Chicago");
    expect(screen.getByText(`The helper may arrive any time until ${by}`)).toBeTruthy();
    expect(screen.queryByText(/Late/)).toBeNull();
  });
});

describe("the visit report's times", () => {
  it("reads when it was written and corrected on the senior's clock, her zone named", () => {
    // Written 5:59 PM in New York (10:59 PM UTC), corrected the next morning; read days later.
    const client = new QueryClient();
    const report: VisitReport = {
      bookingId: 7,
      familyTasks: [
        { task: "Fill the pill box", done: true, reason: "" },
        { task: "Water the plants", done: false, reason: "No watering can" },
      ],
      tasksDone: [],
      notes: "",
      wellbeing: 4,
      wellbeingLabel: "Good",
      forFamily: "",
      followUpSuggested: false,
      createdAt: "2026-01-15T22:59:00Z",
      updatedAt: "2026-01-16T14:05:00Z",
      edits: [{ editedAt: "2026-01-16T14:05:00Z", before: {} }],
    };
    client.setQueryData(["/api/bookings/7/report"], report);
    render(
      <QueryClientProvider client={client}>
        <ReportDetails booking={{ id: 7, scheduledDate: "2026-01-15", recipient: { timeZone: "America/New_York" } }} />
      </QueryClientProvider>,
    );
    // The test's browser is not in New York (UTC): her zone is named, and her date.
    expect(screen.getByText("Thu, Jan 15, 5:59 PM Eastern Time")).toBeTruthy();
    expect(screen.getByText(/once, last at Fri, Jan 16, 9:05 AM Eastern Time\./)).toBeTruthy();
    // The family's tasks as the helper marked them, a task not done with her reason.
    expect(screen.getByText("Done: Fill the pill box")).toBeTruthy();
    expect(screen.getByText("Not done: Water the plants (No watering can)")).toBeTruthy();
  });
});
