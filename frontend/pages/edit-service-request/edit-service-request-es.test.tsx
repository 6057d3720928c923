// /edit-service-request in Spanish: the island mounts as on a page (<html lang="es">, its root and
// props) and says its words in Spanish.
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { activateForTest } from "../../lib/test-i18n";

afterEach(() => {
  document.body.innerHTML = "";
});

describe("the edit-request page in Spanish", () => {
  it("says a request it cannot load is not found, in Spanish", async () => {
    await activateForTest("es");
    document.body.innerHTML =
      '<div id="edit-service-request-root"></div>' +
      '<script id="edit-service-request-props" type="application/json">{"requestId": ""}</script>';
    await import("../../islands/edit-service-request");
    expect(await screen.findByRole("heading", { name: "No encontramos la solicitud" })).toBeTruthy();
    expect(screen.getByRole("link", { name: /Volver a la página de inicio/ })).toBeTruthy();
  });
});
