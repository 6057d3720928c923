import { describe, expect, it } from "vitest";
import {
  capitalize,
  formatClock,
  formatDate,
  milesAway,
  formatMessageTime,
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
  zoneName,
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

describe("one clock per visit", () => {
  // 7:00 PM UTC on a winter day: 2:00 PM in New York, 1:00 PM in Chicago.
  const moment = "2026-01-15T19:00:00Z";

  it("reads a visit's time on the recipient's clock and names her zone when the viewer's differs", () => {
    expect(formatClock(moment, "America/New_York", "America/Los_Angeles")).toBe("2:00 PM Eastern Time");
    expect(formatClock(moment, "America/Chicago", "America/New_York")).toBe("1:00 PM Central Time");
  });

  it("says no zone when the viewer's clock reads the same", () => {
    expect(formatClock(moment, "America/New_York", "America/New_York")).toBe("2:00 PM");
    // Another name for the same clock at that moment.
    expect(formatClock(moment, "America/New_York", "America/Detroit")).toBe("2:00 PM");
  });

  it("keeps the browser's clock without a zone, and survives an unknown one", () => {
    expect(formatClock(moment)).toBe(
      new Date(moment).toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" }),
    );
    expect(formatClock(moment, "Mars/Olympus_Mons", "America/New_York")).toBe(formatClock(moment));
    expect(formatClock(null, "America/Chicago")).toBe("");
  });

  it("names zones as people say them", () => {
    expect(zoneName("America/Chicago", new Date(moment))).toBe("Central Time");
    expect(zoneName("Mars/Olympus_Mons")).toBe("Olympus Mons time");
    // POSIX names count the other way: Etc/GMT-3 is three hours ahead of UTC.
    expect(zoneName("Etc/GMT-3", new Date(moment))).toBe("GMT+3");
  });
});

describe("a message's time", () => {
  // 10:59 PM UTC on a winter day: 5:59 PM in New York, 4:59 PM in Chicago.
  const sent = "2026-01-15T22:59:00Z";
  const soon = Date.parse(sent) + 60 * 60 * 1000;
  const days = Date.parse(sent) + 3 * 24 * 60 * 60 * 1000;

  it("reads a message about a senior in New York on her clock, for a viewer in Chicago", () => {
    expect(formatMessageTime(sent, soon, "America/New_York", "America/Chicago")).toBe("5:59 PM Eastern Time");
    expect(formatMessageTime(sent, days, "America/New_York", "America/Chicago")).toBe(
      "Jan 15, 2026, 5:59 PM Eastern Time",
    );
  });

  it("gives her date, not the viewer's, when the clocks are on either side of midnight", () => {
    // 11:30 PM on Jan 15 in Chicago is already Jan 16 in New York.
    expect(
      formatMessageTime("2026-01-16T05:30:00Z", days + 24 * 60 * 60 * 1000, "America/Chicago", "America/New_York"),
    ).toBe("Jan 15, 2026, 11:30 PM Central Time");
  });

  it("says no zone when the viewer shares her clock, and keeps the browser's without one", () => {
    expect(formatMessageTime(sent, soon, "America/New_York", "America/New_York")).toBe("5:59 PM");
    expect(formatMessageTime(sent, soon)).toBe(formatClock(sent));
    expect(formatMessageTime("", soon, "America/New_York")).toBe("");
  });
});

describe("the window the family was told", () => {
  it("names the recipient's zone beside the window when the viewer's clock differs that day", () => {
    expect(formatVisit("2026-01-15", "afternoon", "America/Chicago", "America/New_York")).toBe(
      `${formatDate("2026-01-15")} · Afternoon (12PM - 5PM) Central Time`,
    );
    expect(formatVisit("2026-01-15", "afternoon", "America/Chicago", "America/Chicago")).toBe(
      `${formatDate("2026-01-15")} · Afternoon (12PM - 5PM)`,
    );
    expect(formatVisit("2026-01-15", "flexible", "America/Chicago", "America/New_York")).toBe(
      `${formatDate("2026-01-15")} · Flexible`,
    );
  });
});

describe("milesAway", () => {
  it("tells the server's rounded miles the way people say them", () => {
    expect(milesAway(3.2)).toBe("3.2 miles away");
    expect(milesAway(12)).toBe("12 miles away");
    expect(milesAway(1)).toBe("1 mile away");
    expect(milesAway(0)).toBe("Less than 0.1 miles away");
  });
});
