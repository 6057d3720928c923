// /providers in Spanish: the island mounts as on a page (<html lang="es">, its root and props),
// near the viewer herself, and says its filters, its count and its cards in Spanish; with no
// helper found, its empty state too. No English sentence is left in what the page shows.
import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activateForTest, shownTexts } from "../../lib/test-i18n";

afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
});

const PROVIDER = {
  id: 5,
  userId: "p5",
  specialties: ["companionship"],
  languages: ["es", "en"],
  speaks: "Habla español, inglés",
  hourlyRate: 30,
  availability: null,
  serviceArea: "Springfield",
  bio: "",
  experience: "",
  verificationStatus: "verified",
  identityVerifiedAt: "2026-10-01T12:00:00Z",
  backgroundCheckedAt: "2026-10-02T12:00:00Z",
  isActive: true,
  rating: 4.8,
  totalReviews: 12,
  createdAt: "2026-09-01T12:00:00Z",
  updatedAt: "2026-10-02T12:00:00Z",
  user: { id: "p5", firstName: "Vera", lastName: "Soto", profileImageUrl: "" },
  nextFreeWindow: { date: "2026-12-01", timeWindow: "morning" },
  distanceMiles: 3.2,
  answerMinutes: 45,
  completion: null,
};

const PROPS = {
  services: [{ id: "companionship", name: "Compañía" }],
  languages: [
    { id: "en", name: "inglés" },
    { id: "es", name: "español" },
  ],
  near: [{ id: 7, name: "Me", firstName: "Ana", problem: "" }],
  withinChoices: [5, 10, 25],
};

/** The English words a sentence of the page would still hold, if any were left untranslated. */
const ENGLISH = /\b(the|and|you|your|with|is|are|this|found|of|Near|Search|Sort|Clear|Load|providers?|Me)\b/;

function answering(providers: unknown[]) {
  vi.stubGlobal(
    "fetch",
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify(providers), {
          headers: { "Content-Type": "application/json", "X-Total-Count": String(providers.length) },
        }),
      ),
    ),
  );
}

async function mount() {
  await activateForTest("es");
  document.body.innerHTML =
    '<div id="providers-root"></div>' +
    `<script id="providers-props" type="application/json">${JSON.stringify(PROPS)}</script>`;
  vi.resetModules();
  await import("../../islands/providers");
}

describe("the providers page in Spanish", () => {
  it("says its filters, the count and a helper's card in Spanish", async () => {
    answering([PROVIDER]);
    await mount();
    expect(await screen.findByText("1 ayudante encontrado", undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByLabelText("¿Cerca de quién?")).toBeTruthy();
    expect(screen.getByRole("option", { name: "Yo" })).toBeTruthy();
    expect(screen.getByRole("option", { name: "Los más cercanos primero" })).toBeTruthy();
    expect(screen.getByText("Cerca de usted")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Borrar los filtros" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Hora del día"), { target: { value: "morning" } });
    const texts = shownTexts(document.getElementById("providers-root") as HTMLElement);
    expect(texts.length).toBeGreaterThan(20);
    expect(texts.filter((text) => ENGLISH.test(text))).toEqual([]);
  }, 20_000);

  it("says that no helper near her matches, in Spanish", async () => {
    answering([]);
    await mount();
    expect(await screen.findByRole("heading", { name: "No encontramos ayudantes" }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/Ningún ayudante que llegue hasta su casa/)).toBeTruthy();
    const texts = shownTexts(document.getElementById("providers-root") as HTMLElement);
    expect(texts.filter((text) => ENGLISH.test(text))).toEqual([]);
  }, 20_000);
});
