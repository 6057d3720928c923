import { describe, expect, it } from "vitest";
import { fill, numberTooLarge, textTooLong } from "./limits";

const title = { maxLength: 10, maxLengthMessage: "Title must be at most 10 characters." };
const budget = { max: 500, maxMessage: "Budget must be at most $500." };

describe("textTooLong", () => {
  it("gives the server's message only above the limit, counting the text as sent (trimmed)", () => {
    expect(textTooLong(title, "0123456789")).toBe("");
    expect(textTooLong(title, "  0123456789  ")).toBe("");
    expect(textTooLong(title, "0123456789X")).toBe("Title must be at most 10 characters.");
  });

  it("says nothing without a limit", () => {
    expect(textTooLong(undefined, "x".repeat(10_000))).toBe("");
    expect(textTooLong({ minLength: 3 }, "x".repeat(10_000))).toBe("");
    expect(textTooLong({ maxLength: 1 }, "long")).toBe("");
  });
});

describe("numberTooLarge", () => {
  it("gives the server's message only above the maximum", () => {
    expect(numberTooLarge(budget, 500)).toBe("");
    expect(numberTooLarge(budget, 500.01)).toBe("Budget must be at most $500.");
    expect(numberTooLarge(budget, Number.NaN)).toBe("");
    expect(numberTooLarge(undefined, 1e9)).toBe("");
  });
});

describe("fill", () => {
  it("fills a server message's blanks and leaves an unknown one as written", () => {
    expect(fill("{label} can be at most {max} characters.", { label: "Note", max: 200 })).toBe(
      "Note can be at most 200 characters.",
    );
    expect(fill("This overlaps another window on {day}.", {})).toBe("This overlaps another window on {day}.");
  });
});
