// /provider-signup in Spanish: the application form and, once she has applied, her two checks,
// each island mounted as on a page (<html lang="es">, its root and props).
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activateForTest } from "../../lib/test-i18n";

afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
});

describe("becoming a helper, in Spanish", () => {
  it("asks the application's questions in Spanish", async () => {
    await activateForTest("es");
    const props = {
      user: { id: "u1", firstName: "Vera" },
      specialties: [{ id: "companionship", name: "Compañía" }],
      languages: [
        { id: "en", name: "inglés" },
        { id: "es", name: "español" },
      ],
      limits: {},
      provider: null,
    };
    document.body.innerHTML =
      '<div id="provider-signup-root"></div>' +
      `<script id="provider-signup-props" type="application/json">${JSON.stringify(props)}</script>`;
    await import("../../islands/provider-signup");
    expect(await screen.findByRole("group", { name: /Servicios que ofrece/ })).toBeTruthy();
    expect(screen.getByRole("group", { name: /Idiomas que habla/ })).toBeTruthy();
    expect(screen.getByLabelText(/Tarifa por hora en dólares/)).toBeTruthy();
    expect(screen.getByRole("option", { name: "Hasta 10 millas" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Enviar la solicitud" })).toBeTruthy();
  });

  it("shows her two checks and their status in Spanish", async () => {
    const mine = { identity: { status: "verified", url: "", message: "" }, backgroundCheck: null };
    vi.stubGlobal(
      "fetch",
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify(mine), { status: 200, headers: { "Content-Type": "application/json" } }),
        ),
      ),
    );
    await activateForTest("es");
    document.body.innerHTML =
      '<div id="vetting-steps-root"></div><script id="vetting-steps-props" type="application/json">{}</script>';
    await import("../../islands/vetting-steps");
    expect(await screen.findByRole("heading", { name: "Verifique su identidad" })).toBeTruthy();
    expect(screen.getByTestId("vetting-verify-your-id-status").textContent).toBe("Hecho: su identidad está verificada");
    expect(screen.getByTestId("vetting-background-check-consent-status").textContent).toBe("Sin empezar");
    expect(screen.getByRole("button", { name: "Empezar: dar mi consentimiento" })).toBeTruthy();
  });
});
