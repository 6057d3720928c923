import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { answerSpeedText, completionText, TrackRecord } from "./TrackRecord";

describe("a helper's track record", () => {
  it("says how quickly she answers and how many of her last visits she completed", () => {
    expect(answerSpeedText(14)).toBe("Usually answers in 14 min");
    expect(answerSpeedText(150)).toBe("Usually answers in 3 hours");
    expect(completionText({ completed: 24, visits: 25 })).toBe("Completed 24 of the last 25 visits");
  });

  it("says New helper when she has had too few visits, unless her rating already does", () => {
    const { rerender } = render(<TrackRecord answerMinutes={null} completion={null} newHelperShown={false} />);
    expect(screen.getByTestId("completion").textContent).toBe("New helper");
    rerender(<TrackRecord answerMinutes={null} completion={null} newHelperShown={true} />);
    expect(screen.queryByTestId("completion")).toBeNull();
  });
});
