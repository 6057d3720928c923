import { describe, expect, it } from "vitest";
import { repeatPayload, seriesDates, seriesLength, seriesSummary } from "./series";

describe("seriesDates (as requests_app.services.series_dates)", () => {
  it("steps weekly and every 2 weeks", () => {
    expect(seriesDates("2026-12-01", "weekly", 4)).toEqual(["2026-12-01", "2026-12-08", "2026-12-15", "2026-12-22"]);
    expect(seriesDates("2026-12-01", "every_2_weeks", null, "2026-12-29")).toEqual([
      "2026-12-01",
      "2026-12-15",
      "2026-12-29",
    ]);
  });

  it("keeps the weekday of the week monthly, the last one when there is no 5th", () => {
    expect(seriesDates("2026-12-29", "monthly", 4)).toEqual(["2026-12-29", "2027-01-26", "2027-02-23", "2027-03-30"]);
    expect(seriesDates("2026-12-08", "monthly", 3)).toEqual(["2026-12-08", "2027-01-12", "2027-02-09"]);
  });

  it("stops one past 26 so a form can tell a series that is too long", () => {
    expect(seriesDates("2026-12-01", "weekly", null, "2028-01-01")).toHaveLength(27);
  });
});

describe("the repeat's words and rules", () => {
  it("summarises the dates", () => {
    expect(seriesSummary(["2026-12-01", "2026-12-08", "2026-12-15", "2026-12-22"])).toBe(
      "4 visits: Tue Dec 1, Dec 8, Dec 15, Dec 22",
    );
  });

  it("counts a series up to its end date as the server does", () => {
    expect(seriesLength("2026-12-01", "weekly", "2026-12-15")).toBe(3);
    expect(seriesLength("2026-12-01", "weekly", "2026-12-14")).toBe(2);
    expect(seriesLength("2026-12-01", "every_2_weeks", "2027-12-01")).toBe(27);
    // The 1st Tuesday of each month: Dec 1, Jan 5, Feb 2; Feb 1 is before the third.
    expect(seriesLength("2026-12-01", "monthly", "2027-02-02")).toBe(3);
    expect(seriesLength("2026-12-01", "monthly", "2027-02-01")).toBe(2);
    expect(seriesLength("2026-12-01", "monthly", "2026-11-30")).toBe(0);
  });

  it("sends the end the form shows", () => {
    const base = { repeat: "weekly" as const, repeatEnds: "count" as const, repeatCount: "27", repeatUntil: "" };
    expect(repeatPayload({ ...base, repeatCount: "3" })).toEqual({
      repeat: "weekly",
      repeatCount: 3,
      repeatUntil: null,
    });
    expect(repeatPayload({ ...base, repeat: "" })).toEqual({ repeat: "", repeatCount: null, repeatUntil: null });
  });
});
