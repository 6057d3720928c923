import { describe, expect, it, vi } from "vitest";
import { BROWSE_DEFAULTS, browseDefaults, browseProblem, dayProblem, type BrowseValues } from "./browse";

const check = (changes: Partial<BrowseValues>) => browseProblem({ ...BROWSE_DEFAULTS, ...changes });

describe("browseSchema", () => {
  it("accepts the page's filters", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(2026, 10, 23, 9));
    try {
      expect(check({})).toBe("");
      expect(
        check({ search: "garden", service: "tech-support", sort: "rate-low", day: "2026-11-23", dayPart: "evening" }),
      ).toBe("");
      expect(check({ day: "2026-11-22" })).toBe("Please choose today or a later date.");
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers what the server would, in its words", () => {
    expect(check({ search: "x".repeat(201) })).toBe("Search can be at most 200 characters.");
    expect(check({ search: ` ${"x".repeat(200)} ` })).toBe("");
    expect(check({ sort: "cheapest" })).toBe('"cheapest" is not a valid choice.');
    expect(check({ dayPart: "night" })).toBe("Please choose morning, afternoon or evening.");
    expect(check({ sort: "cheapest", dayPart: "night" })).toBe("Please correct the highlighted fields.");
  });

  it("asks for someone to be near before nearest first or a distance", () => {
    expect(check({ near: "7", sort: "distance", within: "10" })).toBe("");
    expect(check({ sort: "distance" })).toBe("Please choose whom the helpers should be near.");
    expect(check({ within: "10" })).toBe("Please choose whom the helpers should be near.");
    expect(check({ near: "7", within: "0" })).toBe("Please choose a distance from 1 to 100 miles.");
    expect(check({ near: "7", within: "10000" })).toBe("Please choose a distance from 1 to 100 miles.");
  });

  it("starts near the first person who can be placed, nearest first", () => {
    expect(browseDefaults("7")).toMatchObject({ near: "7", sort: "distance", within: "" });
    expect(browseDefaults("")).toEqual(BROWSE_DEFAULTS);
  });

  it("reads the day as YYYY-MM-DD, today or later", () => {
    expect(dayProblem("", "2026-11-23")).toBe("");
    expect(dayProblem("2026-11-23", "2026-11-23")).toBe("");
    expect(dayProblem("2026-11-22", "2026-11-23")).toBe("Please choose today or a later date.");
    expect(dayProblem("23/11/2026", "2026-11-23")).toBe("Please enter the date as YYYY-MM-DD.");
  });
});
