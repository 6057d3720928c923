import { describe, expect, it } from "vitest";
import { durationText, percentText } from "./MarketTab";

describe("the Market tab's words", () => {
  it("says a share as a whole percent, and nothing judged plainly", () => {
    expect(percentText(0.5)).toBe("50%");
    expect(percentText(2 / 3)).toBe("67%");
    expect(percentText(0)).toBe("0%");
    expect(percentText(null)).toBe("No requests yet");
  });

  it("says a median time to accept in minutes, hours or days", () => {
    expect(durationText(14.4)).toBe("14 min");
    expect(durationText(60)).toBe("1 hr");
    expect(durationText(125)).toBe("2 hr 5 min");
    expect(durationText(3 * 24 * 60)).toBe("3 days");
    expect(durationText(null)).toBe("No accepts yet");
  });
});
