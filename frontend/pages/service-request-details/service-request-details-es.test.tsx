// /service-request-details in Spanish: the island mounts as on a page (<html lang="es">, its root
// and props) and says its words in Spanish.
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { activateForTest } from "../../lib/test-i18n";

afterEach(() => {
  document.body.innerHTML = "";
});

describe("a request's page in Spanish", () => {
  it("says a page opened without a request in Spanish", async () => {
    await activateForTest("es");
    const props = { requestId: null, viewer: { userType: "client", provider: null } };
    document.body.innerHTML =
      '<div id="service-request-details-root"></div>' +
      `<script id="service-request-details-props" type="application/json">${JSON.stringify(props)}</script>`;
    await import("../../islands/service-request-details");
    expect(await screen.findByRole("heading", { name: "Falta la solicitud" })).toBeTruthy();
    expect(
      screen.getByText("No se indicó ninguna solicitud. Abra una solicitud desde su página de inicio."),
    ).toBeTruthy();
    expect(screen.getByRole("link", { name: /Volver a la página de inicio/ })).toBeTruthy();
  });
});
