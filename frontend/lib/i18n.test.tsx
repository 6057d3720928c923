import { t } from "@lingui/core/macro";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { formatDate, formatMoney, milesAway, statusLabel, TIME_WINDOWS } from "./format";
import { i18n, pageLocale, withWords } from "./i18n";
import { renderIsland } from "./mount";
import { activateForTest } from "./test-i18n";
import { toast, Toaster } from "./toast";

describe("the page's language", () => {
  it("is read from <html lang>, Spanish for any es tag, English otherwise", () => {
    document.documentElement.lang = "es-US";
    expect(pageLocale()).toBe("es");
    document.documentElement.lang = "fr";
    expect(pageLocale()).toBe("en");
    document.documentElement.lang = "";
    expect(pageLocale()).toBe("en");
  });

  it("starts every test in English", () => {
    expect(i18n.locale).toBe("en");
    expect(statusLabel("confirmed")).toBe("Confirmed");
  });

  it("says the toaster's words, the tables' labels, dates, money and counts in Spanish", async () => {
    await activateForTest("es");
    render(<Toaster />);
    expect(screen.getByRole("region", { name: "Avisos (F8)" })).toBeTruthy();
    expect(TIME_WINDOWS[0]?.label).toBe("Mañana (8 AM - 12 PM)");
    expect(statusLabel("confirmed")).toBe("Confirmada");
    expect(formatMoney(45)).toBe("$45.00");
    expect(formatDate("2026-11-24")).toBe("mar, 24 de nov de 2026");
    expect(milesAway(1)).toBe("a 1 milla");
    expect(milesAway(3.2)).toBe("a 3.2 millas");
    toast({ title: "Hola" });
    expect(await screen.findByText("Hola")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cerrar el aviso" })).toBeTruthy();
  });
});

describe("an island's catalogue", () => {
  function AccountWord() {
    return <p>{t`Account`}</p>;
  }

  it("is loaded in the page's language before the island renders, added to the page's other islands'", async () => {
    // Built, each island loads its own (frontend/locales/islands/<name>/es.po); here, the whole one
    // unless a build left them.
    document.documentElement.lang = "es";
    const toaster = document.body.appendChild(document.createElement("div"));
    const menu = document.body.appendChild(document.createElement("div"));
    renderIsland(toaster, <Toaster />, "toaster");
    renderIsland(menu, <AccountWord />, "user-menu");
    expect(await screen.findByText("Cuenta")).toBeTruthy();
    expect(i18n.locale).toBe("es");
    expect(await screen.findByRole("region", { name: "Avisos (F8)" })).toBeTruthy();
  });
});

describe("withWords", () => {
  const rules = { a: { B: "English", N: 3, LIST: ["x"] }, C: "Other" } as const;

  it("lays a language's messages over the English, leaving the rest", () => {
    const spanish = withWords(rules, { "a.B": "Español", "a.N": "no" });
    expect(spanish.a.B).toBe("Español");
    expect(spanish.a.N).toBe(3);
    expect(spanish.C).toBe("Other");
    expect(rules.a.B).toBe("English");
  });

  it("gives the English when the language words nothing differently", () => {
    expect(withWords(rules, undefined)).toBe(rules);
  });
});
