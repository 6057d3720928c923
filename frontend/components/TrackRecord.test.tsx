import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { activateForTest, renderWithI18n } from "../lib/test-i18n";
import { answerSpeedText, completionText, TrackRecord } from "./TrackRecord";

describe("a helper's track record", () => {
  it("says how quickly she answers and how many of her last visits she completed", () => {
    expect(answerSpeedText(14)).toBe("Usually answers in 14 min");
    expect(answerSpeedText(150)).toBe("Usually answers in 3 hours");
    expect(completionText({ completed: 24, visits: 25 })).toBe("Completed 24 of the last 25 visits");
  });

  it("says New helper when she has had too few visits, unless her rating already does", () => {
    const { rerender } = renderWithI18n(<TrackRecord answerMinutes={null} completion={null} newHelperShown={false} />);
    expect(screen.getByTestId("completion").textContent).toBe("New helper");
    rerender(<TrackRecord answerMinutes={null} completion={null} newHelperShown={true} />);
    expect(screen.queryByTestId("completion")).toBeNull();
  });

  it("reads in Spanish for a Spanish page", async () => {
    await activateForTest("es");
    expect(answerSpeedText(14)).toBe("Suele responder en 14 min");
    expect(completionText({ completed: 24, visits: 25 })).toBe("Completó 24 de sus últimas 25 visitas");
  });
});
