// /admin in Spanish: the staff console mounts as on a page (<html lang="es">, its root and props)
// and says its summary, its tabs and the lists it opens in Spanish, with none of the English left.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activateForTest } from "../../lib/test-i18n";
import { waitedFor } from "./DisputesTab";
import { durationText, percentText } from "./MarketTab";
import { callLength } from "./PhoneTab";

afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
});

const COUNTS = {
  providers: { pending: 2, verified: 5, rejected: 1, total: 8 },
  bookings: { total: 12, confirmed: 4, cancelled: 3 },
  serviceRequests: { total: 9, open: 2, completed: 6 },
};

const PROPS = {
  admin: { id: 1, firstName: "Rosa" },
  today: "2026-11-26",
  counts: COUNTS,
  todayBookings: { items: [], total: 0 },
};

/** Every list the console asks for answers empty (the summary's counts as the page gave them). */
function emptyServer() {
  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo | URL) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.pathname : input.url;
      const body = url.startsWith("/api/admin/summary") ? COUNTS : [];
      return Promise.resolve(
        new Response(JSON.stringify(body), {
          status: 200,
          headers: { "Content-Type": "application/json", "X-Total-Count": "0" },
        }),
      );
    }),
  );
}

async function mountAdmin() {
  emptyServer();
  await activateForTest("es");
  document.body.innerHTML =
    '<div id="admin-root"></div>' +
    `<script id="admin-props" type="application/json">${JSON.stringify(PROPS)}</script>`;
  await import("../../islands/admin");
}

/** A tab's panel loads its own module when first opened: Vitest transforms it then. */
const LAZY = { timeout: 15_000 };

function openTab(name: string) {
  const tab = screen.getByRole("tab", { name });
  fireEvent.mouseDown(tab, { button: 0 });
  return tab;
}

describe("the admin console in Spanish", () => {
  it("says its summary, tabs, counts, lists and empty states in Spanish", { timeout: 60_000 }, async () => {
    await mountAdmin();
    expect(await screen.findByRole("heading", { name: "Hoy, de un vistazo" })).toBeTruthy();
    expect(screen.getByText("2 solicitudes esperan su revisión.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Revisar las solicitudes pendientes" })).toBeTruthy();
    expect(screen.getAllByText("No hay reservas hoy.").length).toBeGreaterThan(0);
    const tabs = screen.getAllByRole("tab").map((tab) => tab.textContent);
    expect(tabs).toEqual([
      "Ayudantes",
      "Verificaciones",
      "Reservas",
      "Reclamos",
      "Solicitudes",
      "Hoy",
      "Mercado",
      "Teléfono",
    ]);
    expect(screen.getByRole("list", { name: "Cantidades de ayudantes" }).textContent).toContain("Pendiente");
    expect(screen.getByLabelText("Buscar ayudantes")).toBeTruthy();
    expect(await screen.findByRole("heading", { name: /Pendientes de aprobación/ })).toBeTruthy();
    expect(screen.getByRole("heading", { name: /Ayudantes no aprobados/ })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText("No se encontraron ayudantes")).toHaveLength(3));
    // The ids stay English whatever the language: the summary's link and the browser tests find them.
    expect(document.getElementById("group-pending-approval")).toBeTruthy();
    expect(screen.getByTestId("count-Verified").textContent).toContain("Verificado");
    expect(document.body.textContent).not.toMatch(/Pending Approval|Today at a glance|Search providers/);

    // The island mounts once a test file (an import): the other tabs are opened on the same page.
    openTab("Reservas");
    expect(await screen.findByRole("heading", { name: "Todas las reservas" }, LAZY)).toBeTruthy();
    expect(screen.getByLabelText("Buscar reservas")).toBeTruthy();
    expect(screen.getByLabelText("Estado")).toBeTruthy();
    expect(screen.getByRole("option", { name: "Todos los estados" })).toBeTruthy();
    expect(screen.getByRole("list", { name: "Cantidades de reservas" }).textContent).toContain("Total de reservas");
    expect(await screen.findByText("0 reservas encontradas")).toBeTruthy();

    openTab("Reclamos");
    expect(await screen.findByRole("heading", { name: "No hay reclamos" }, LAZY)).toBeTruthy();

    openTab("Teléfono");
    expect(await screen.findByRole("heading", { name: "Mensajes para el personal" }, LAZY)).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "No hay mensajes telefónicos" })).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "Todavía no hay llamadas ni mensajes de texto" })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/All Bookings|No disputes|Messages for staff/);
  });

  it("says the Market, Disputes and Phone tabs' numbers in Spanish", async () => {
    await activateForTest("es");
    expect(percentText(null)).toBe("Todavía no hay solicitudes");
    expect(durationText(125)).toBe("2 h 5 min");
    expect(durationText(3 * 24 * 60)).toBe("3 días");
    expect(durationText(null)).toBe("Todavía no hay aceptaciones");
    const now = new Date("2026-11-26T12:00:00Z");
    expect(waitedFor("2026-11-26T11:30:00Z", now)).toBe("menos de una hora");
    expect(waitedFor("2026-11-26T11:00:00Z", now)).toBe("1 hora");
    expect(waitedFor("2026-11-23T12:00:00Z", now)).toBe("3 días");
    expect(callLength({ kind: "call", seconds: null })).toBe("No se conectó");
    expect(callLength({ kind: "text", seconds: null })).toBe("Mensaje de texto");
  });
});
