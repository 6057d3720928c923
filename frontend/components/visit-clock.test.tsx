import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { formatClock } from "../lib/format";
import type { Booking } from "../lib/types";
import { bookingStatusNote } from "./StatusBadge";
import { checkInByNote, VisitProgress } from "./VisitControls";

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
