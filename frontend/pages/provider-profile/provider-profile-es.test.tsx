// A helper's profile (/providers/{id}) in Spanish: the island mounts as on a page (<html lang="es">,
// its root and props), a verified helper with a review, then a new one not shown to families yet,
// and says its words in Spanish. No English sentence is left in what the page shows.
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activateForTest, shownTexts } from "../../lib/test-i18n";

afterEach(() => {
  document.body.innerHTML = "";
});

const PROFILE = {
  id: 5,
  user: { id: "p5", firstName: "Vera", lastName: "Soto", profileImageUrl: "" },
  specialties: ["companionship"],
  languages: ["es", "en"],
  speaks: "Habla español, inglés",
  hourlyRate: 30,
  serviceArea: "Springfield",
  bio: "",
  experience: "",
  verificationStatus: "verified",
  isActive: true,
  identityVerifiedAt: "2026-10-01T12:00:00Z",
  backgroundCheckedAt: "2026-10-02T12:00:00Z",
  rating: 4.8,
  totalReviews: 1,
  visitsCompleted: 3,
  answerMinutes: 45,
  completion: null,
  memberSince: "2026-09-01",
  reviews: [
    {
      id: 1,
      rating: 5,
      comment: "Muy amable.",
      createdAt: "2026-11-10T12:00:00Z",
      serviceName: null,
      reviewer: { firstName: "Ana", lastName: "Méndez" },
    },
  ],
};

/** The English words a sentence of the page would still hold, if any were left untranslated. */
const ENGLISH = /\b(the|and|you|your|with|is|are|this|yet|per|hour|visits?|completed|About|Request|Reviews?)\b/;

async function mount(profile: object) {
  await activateForTest("es");
  document.body.innerHTML =
    '<div id="provider-profile-root"></div>' +
    `<script id="provider-profile-props" type="application/json">${JSON.stringify({ profile })}</script>`;
  vi.resetModules();
  await import("../../islands/provider-profile");
}

describe("a helper's profile in Spanish", () => {
  it("says a verified helper's facts, her visits and her reviews in Spanish", async () => {
    await mount(PROFILE);
    expect(await screen.findByRole("heading", { name: "Sobre Vera" }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId("visits-completed").textContent).toBe("3 visitas completadas");
    expect(screen.getByTestId("rate").textContent).toBe("$30.00 por hora");
    expect(screen.getByRole("link", { name: "Pedir ayuda a Vera" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Opiniones" })).toBeTruthy();
    const texts = shownTexts(document.getElementById("provider-profile-root") as HTMLElement);
    expect(texts.filter((text) => ENGLISH.test(text))).toEqual([]);
  }, 20_000);

  it("tells that a new helper is not shown to families yet, in Spanish", async () => {
    await mount({ ...PROFILE, isActive: false, visitsCompleted: 0, totalReviews: 0, reviews: [], hourlyRate: null });
    expect(await screen.findByTestId("profile-not-public", undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId("visits-completed").textContent).toBe("Todavía no tiene visitas completadas en Kindly");
    expect(screen.getByText("Todavía no hay opiniones.")).toBeTruthy();
    const texts = shownTexts(document.getElementById("provider-profile-root") as HTMLElement);
    expect(texts.filter((text) => ENGLISH.test(text))).toEqual([]);
  }, 20_000);
});
