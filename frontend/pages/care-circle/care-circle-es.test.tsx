// /care-circle in Spanish: the island mounts as on a page (<html lang="es">, its root and props),
// an organizer's card with a member, a pending invitation, an emergency contact and the phone menu
// set up, and says its words in Spanish: no English sentence is left in what the page shows.
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activateForTest } from "../../lib/test-i18n";

afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
});

const user = (id: string, firstName: string, lastName: string, email: string) => ({
  id,
  firstName,
  lastName,
  email,
  profileImageUrl: "",
});

const RECIPIENT = {
  id: 7,
  firstName: "Rosa",
  lastName: "Méndez",
  address: "12 Calle Luna, Springfield, IL 62701",
  street: "12 Calle Luna",
  unit: "",
  town: "Springfield",
  state: "IL",
  zipCode: "62701",
  phone: "217-555-0100",
  notesForHelpers: "",
  language: "es",
  isSelf: false,
  myRole: "organizer",
  members: [
    { id: 1, user: user("u1", "Ana", "Méndez", "ana@ejemplo.com"), role: "organizer", isRecipient: false },
    { id: 2, user: user("u2", "Luis", "Méndez", "luis@ejemplo.com"), role: "member", isRecipient: false },
  ],
  invitations: [
    {
      id: 3,
      email: "carmen@ejemplo.com",
      role: "member",
      forRecipient: false,
      status: "pending",
      createdAt: "2026-11-20T15:00:00Z",
      expiresAt: "2026-11-27T15:00:00Z",
      expired: false,
    },
  ],
  emergencyContacts: [{ id: 4, name: "Pedro Méndez", relationship: "hijo", phone: "217-555-0101", isPrimary: true }],
};

const PROPS = { viewer: { id: "u1", firstName: "Ana", hasSelf: false }, recipients: [RECIPIENT] };

// The phone menu is set up: its PIN and the reminder's choice are asked for once the card shows.
function answers(url: string): unknown {
  if (url.endsWith("/phone-pin")) return { setUp: true, set: false, locked: false };
  if (url.endsWith("/phone-reminder")) return { by: "call" };
  return [RECIPIENT];
}

/** The English words a sentence of the page would still hold, if any were left untranslated. */
const ENGLISH = /\b(the|and|you|your|with|is|are|this|from|for|of|Add|Remove|Save|Send|Download)\b/;

/** Each piece of text the page shows, one per text node (a long field's counter, "0 / 2,000
 * characters", is the shared Field's and left out here). */
function shownTexts(root: HTMLElement): string[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim() ?? "";
    if (text && !node.parentElement?.closest('[id$="-count"]')) texts.push(text);
  }
  return texts;
}

describe("the care circle in Spanish", () => {
  it("says an organizer's card, its forms and the phone menu in Spanish", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn((url: string) =>
        Promise.resolve(
          new Response(JSON.stringify(answers(url)), { headers: { "Content-Type": "application/json" } }),
        ),
      ),
    );
    await activateForTest("es");
    document.body.innerHTML =
      '<div id="care-circle-root"></div>' +
      `<script id="care-circle-props" type="application/json">${JSON.stringify(PROPS)}</script>`;
    await import("../../islands/care-circle");
    expect(
      await screen.findByRole("heading", { name: "Llamar a Kindly por teléfono" }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Personas del círculo" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Agregar a alguien que usted cuida" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Enviar la invitación" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Quitar a Luis Méndez" })).toBeTruthy();
    expect(
      await screen.findByLabelText(/Recordatorio la tarde antes de una visita/, undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText("Todavía no hay PIN.")).toBeTruthy();
    expect(screen.getAllByText("Su rol: organizador").length).toBeGreaterThan(0);
    const texts = shownTexts(document.getElementById("care-circle-root") as HTMLElement);
    expect(texts.length).toBeGreaterThan(50);
    expect(texts.filter((text) => ENGLISH.test(text))).toEqual([]);
  }, 20_000);
});
