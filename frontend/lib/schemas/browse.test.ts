import { describe, expect, it, vi } from "vitest";
import { BROWSE_DEFAULTS, browseProblem, dayProblem, type BrowseValues } from "./browse";

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

  it("reads the day as YYYY-MM-DD, today or later", () => {
    expect(dayProblem("", "2026-11-23")).toBe("");
    expect(dayProblem("2026-11-23", "2026-11-23")).toBe("");
    expect(dayProblem("2026-11-22", "2026-11-23")).toBe("Please choose today or a later date.");
    expect(dayProblem("23/11/2026", "2026-11-23")).toBe("Please enter the date as YYYY-MM-DD.");
  });
});
