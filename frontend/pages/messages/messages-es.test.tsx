// /messages in Spanish: the island mounts as on a page (<html lang="es">, its root and props) with
// no conversation chosen, and says its words in Spanish.
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activateForTest } from "../../lib/test-i18n";

afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
});

const PROPS = {
  me: { id: 1, firstName: "Ana", lastName: "García", email: "ana@example.com", isAdmin: false },
  conversations: [],
  support: null,
  supportContacts: { email: "", phone: "" },
  unread: { total: 0, byUser: {} },
  maxLength: 2000,
};

describe("the messages page in Spanish", () => {
  it("says its help card and empty chat in Spanish", async () => {
    // The page polls and listens; this test reads the words only, so every call answers "nothing".
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    await activateForTest("es");
    document.body.innerHTML =
      '<div id="messages-root"></div>' +
      `<script id="messages-props" type="application/json">${JSON.stringify(PROPS)}</script>`;
    await import("../../islands/messages");
    expect(await screen.findByRole("heading", { name: "¿Necesita ayuda?" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Elija una conversación" })).toBeTruthy();
  });
});
