// The saved-card form in Spanish: the island mounts as on a page (<html lang="es">, its root and
// props) with no card saved and the test gateway, and says its words in Spanish.
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { activateForTest } from "../../lib/test-i18n";

afterEach(() => {
  document.body.innerHTML = "";
});

const PROPS = { initial: { card: null, chargeEveryBooking: false, gateway: "test", publishableKey: "" } };

describe("the payment method card in Spanish", () => {
  it("asks for a card in Spanish", async () => {
    await activateForTest("es");
    document.body.innerHTML =
      '<div id="payment-method-root"></div>' +
      `<script id="payment-method-props" type="application/json">${JSON.stringify(PROPS)}</script>`;
    await import("../../islands/payment-method");
    expect(await screen.findByRole("button", { name: "Guardar la tarjeta" })).toBeTruthy();
    expect(screen.getByLabelText(/Número de la tarjeta/)).toBeTruthy();
  });
});
