// /schedule in Spanish: the island mounts as on a page (<html lang="es">, its root and props) with
// Monday's hours (too short for a visit) and a time off, and says its words in Spanish: the
// weekdays in Spanish too (the server sends them in English), no English sentence left.
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { activateForTest, shownTexts } from "../../lib/test-i18n";

afterEach(() => {
  document.body.innerHTML = "";
});

const PROPS = {
  schedule: {
    weeklyHours: [{ weekday: 0, startTime: "09:00", endTime: "10:00" }],
    timeOff: [{ id: 1, firstDay: "2026-12-01", lastDay: "2026-12-03", note: "" }],
  },
  weekdays: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  windows: { morning: ["08:00", "12:00"], afternoon: ["12:00", "17:00"], evening: ["17:00", "20:00"] },
  timeStepMinutes: 15,
  today: "2026-11-26",
};

/** The English words a sentence of the page would still hold, if any were left untranslated. */
const ENGLISH = /\b(the|and|you|your|with|is|are|this|from|to|on|of|Add|Remove|Save|Monday|Tuesday|Sunday)\b/;

describe("the schedule in Spanish", () => {
  it("says the weekly hours and the time off in Spanish", async () => {
    await activateForTest("es");
    document.body.innerHTML =
      '<div id="schedule-root"></div>' +
      `<script id="schedule-props" type="application/json">${JSON.stringify(PROPS)}</script>`;
    await import("../../islands/schedule");
    expect(await screen.findByRole("heading", { name: "Horario semanal" }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Días libres" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "Lunes" })).toBeTruthy();
    expect(screen.getByLabelText("Lunes, horario 1: desde")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Agregar horas el martes" })).toBeTruthy();
    expect(screen.getByTestId("unfit-0").textContent).toContain("No le ofreceremos visitas el lunes");
    expect(screen.getByRole("button", { name: "Guardar el horario semanal" })).toBeTruthy();
    expect(screen.getByRole("button", { name: /^Quitar los días libres del .* de dic/ })).toBeTruthy();
    const texts = shownTexts(document.getElementById("schedule-root") as HTMLElement);
    expect(texts.length).toBeGreaterThan(20);
    expect(texts.filter((text) => ENGLISH.test(text))).toEqual([]);
  }, 20_000);
});
