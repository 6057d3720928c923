import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { BookingPerson } from "./BookingPerson";
import { VettingBadges } from "./VettingBadges";
import type { Booking } from "../lib/types";

describe("VettingBadges", () => {
  it("names the month and year of each check", () => {
    render(<VettingBadges identityVerifiedAt="2026-03-14T11:00:00-04:00" backgroundCheckedAt="2026-04-02T12:00:00Z" />);
    expect(screen.getByTestId("vetting-identity").textContent).toContain("ID verified March 2026");
    expect(screen.getByTestId("vetting-background").textContent).toContain(
      "Background checked April 2026, re-checked yearly",
    );
  });

  it("never claims a check that has no date", () => {
    render(<VettingBadges identityVerifiedAt={null} backgroundCheckedAt={undefined} />);
    const text = screen.getByTestId("vetting").textContent ?? "";
    expect(text).toContain("ID not verified yet");
    expect(text).toContain("Background check not done yet");
    expect(text).not.toMatch(/ID verified|Background checked/);
  });
});

describe("BookingPerson for the family", () => {
  it("links the helper's name to her profile and shows her checks' dates", () => {
    const booking = {
      id: 7,
      provider: {
        id: 42,
        rating: 4.5,
        totalReviews: 3,
        identityVerifiedAt: "2026-03-14T15:00:00Z",
        backgroundCheckedAt: null,
        user: { id: "u1", firstName: "Rosa", lastName: "Delgado", email: "", profileImageUrl: "" },
      },
    } as unknown as Booking;
    render(<BookingPerson booking={booking} perspective="client" />);
    const link = screen.getByRole("link", { name: "Rosa Delgado" });
    expect(link.getAttribute("href")).toBe("/providers/42");
    expect(screen.getByTestId("booking-helper-vetting-identity").textContent).toContain("ID verified March 2026");
    expect(screen.getByTestId("booking-helper-vetting-background").textContent).toContain(
      "Background check not done yet",
    );
  });
});
