import { describe, expect, it } from "vitest";
import {
  capitalize,
  formatClock,
  formatDate,
  formatMoney,
  formatVisitMoment,
  formatVisit,
  parseDateOnly,
  personName,
  plural,
  specialtyName,
  statusLabel,
  timeWindowLabel,
  todayIso,
  urgencyLabel,
} from "./format";

describe("formatMoney", () => {
  it("writes US dollars with two decimals, from the API's number or a prop's string", () => {
    expect(formatMoney(30)).toBe("$30.00");
    expect(formatMoney("1234.5")).toBe("$1,234.50");
    expect(formatMoney(0)).toBe("$0.00");
  });

  it("gives nothing for empty or invalid values", () => {
    expect(formatMoney(null)).toBe("");
    expect(formatMoney(undefined)).toBe("");
    expect(formatMoney("")).toBe("");
    expect(formatMoney("abc")).toBe("");
    expect(formatMoney(Number.NaN)).toBe("");
  });
});

describe("dates", () => {
  it("reads a YYYY-MM-DD date as that calendar day in any zone", () => {
    const d = parseDateOnly("2026-03-01");
    expect([d?.getFullYear(), d?.getMonth(), d?.getDate()]).toEqual([2026, 2, 1]);
    expect(parseDateOnly("1 March")).toBeNull();
  });

  it("formats a date-only value without shifting it a day", () => {
    const text = formatDate("2026-03-01");
    expect(text).toContain("2026");
    expect(text).toMatch(/\b1\b/);
    expect(text).not.toMatch(/\b(28|29)\b/);
  });

  it("gives nothing for missing or invalid dates", () => {
    expect(formatDate(null)).toBe("");
    expect(formatDate("")).toBe("");
    expect(formatDate("not-a-date-at-all")).toBe("");
  });

  it("writes today as YYYY-MM-DD, zero-padded", () => {
    expect(todayIso(new Date(2026, 0, 5))).toBe("2026-01-05");
    expect(todayIso(new Date(2026, 10, 23))).toBe("2026-11-23");
  });

  it("gives a visit's check-in or check-out time its date unless it is today, on the visit's day", () => {
    const now = new Date(2026, 10, 25, 15, 0);
    const today = new Date(2026, 10, 25, 9, 4).toISOString();
    const older = new Date(2026, 10, 23, 17, 59).toISOString();
    expect(formatVisitMoment(today, "2026-11-25", now)).toBe(formatClock(today));
    expect(formatVisitMoment(older, "2026-11-23", now)).toBe(`Mon, Nov 23, ${formatClock(older)}`);
    // Checked out after midnight: today, but not the visit's day.
    expect(formatVisitMoment(today, "2026-11-24", now)).toBe(`Wed, Nov 25, ${formatClock(today)}`);
    expect(formatVisitMoment(null, "2026-11-25", now)).toBe("");
  });

  it("joins a visit's date and time window", () => {
    expect(formatVisit("2026-03-01", "morning")).toBe(`${formatDate("2026-03-01")} · Morning (8AM - 12PM)`);
    expect(formatVisit(null, "evening")).toBe("Evening (5PM - 8PM)");
    expect(formatVisit(null, null)).toBe("");
  });
});

describe("labels", () => {
  it("names the spec's options and keeps unknown values readable", () => {
    expect(timeWindowLabel("afternoon")).toBe("Afternoon (12PM - 5PM)");
    expect(timeWindowLabel("midnight")).toBe("midnight");
    expect(timeWindowLabel("")).toBe("");
    expect(urgencyLabel("urgent")).toBe("Urgent");
    expect(urgencyLabel("someday")).toBe("Someday");
    expect(urgencyLabel(null)).toBe("");
    expect(specialtyName("tech-support")).toBe("Technology Support");
    expect(specialtyName("juggling")).toBe("juggling");
    expect(statusLabel("confirmed")).toBe("Confirmed");
    expect(statusLabel("deleted")).toBe("Deleted by client");
    expect(capitalize("")).toBe("");
  });

  it("names a person by first and last name, else email", () => {
    expect(personName({ firstName: "Clara", lastName: "Davis" })).toBe("Clara Davis");
    expect(personName({ firstName: " ", lastName: "", email: "c@example.com" })).toBe("c@example.com");
    expect(personName({ firstName: "Clara" })).toBe("Clara");
    expect(personName(null)).toBe("");
  });

  it("counts in words", () => {
    expect(plural(1, "provider", "providers")).toBe("1 provider");
    expect(plural(0, "provider", "providers")).toBe("0 providers");
    expect(plural(3, "provider", "providers")).toBe("3 providers");
  });
});
