// Tests in another language: `await activateForTest("es")` before rendering makes the page Spanish
// (<html lang="es"> and Spanish messages, as lib/mount does in a page); test-setup.ts puts every
// test back in English. renderInLocale wraps the tree in Lingui's provider, as mountIsland does.
import { I18nProvider } from "@lingui/react";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { activateLocale, i18n, type Locale } from "./i18n";

export async function activateForTest(locale: Locale): Promise<void> {
  document.documentElement.lang = locale;
  await activateLocale(locale);
}

export function renderWithI18n(ui: ReactNode) {
  return render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
}

/** Each piece of text the page shows, one per text node. */
export function shownTexts(root: HTMLElement): string[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim() ?? "";
    if (text) texts.push(text);
  }
  return texts;
}
