// The islands' language (docs/i18n.md): the page's <html lang>, which the server set from the
// person's own choice (User.language), else the language cookie or the browser's. Every island
// waits for ready() before its first render (lib/mount.tsx), which loads that one language's
// catalogue: frontend/locales/<locale>/messages.po, compiled by Lingui's Vite plugin into a chunk
// of its own, so a page downloads the words of one language only.
// The macros (t`...`, <Trans>, plural from "@lingui/core/macro" and "@lingui/react/macro") read
// Lingui's global i18n, the one activated here.
import { i18n, type Messages } from "@lingui/core";

export type Locale = "en" | "es";

export const LOCALES: readonly Locale[] = ["en", "es"];

/** The language of the page, from <html lang> ("es", "es-US" -> "es"); English otherwise. */
export function pageLocale(doc: Document = document): Locale {
  const lang = doc.documentElement.lang.toLowerCase();
  return lang === "es" || lang.startsWith("es-") ? "es" : "en";
}

// One import per language, so the build makes one chunk per language and a page loads only its own.
const CATALOGUES: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import("../locales/en/messages.po"),
  es: () => import("../locales/es/messages.po"),
};

/** Load `locale`'s catalogue and make it the language of every message from now on. */
export async function activateLocale(locale: Locale): Promise<void> {
  const { messages } = await CATALOGUES[locale]();
  i18n.loadAndActivate({ locale, messages });
}

let pageReady: Promise<void> | undefined;

/** The page's language, activated once for all its islands. */
export function ready(): Promise<void> {
  pageReady ??= activateLocale(pageLocale());
  return pageReady;
}

/** The locale Intl formats in: Spanish as written in the US (dollars, 12-hour clock). */
export function intlLocale(): string {
  return i18n.locale === "es" ? "es-US" : "en-US";
}

export { i18n };

/** `rules` with the messages `words` gives ({"path.to.KEY": text}) in place of the English: the
 * server's rules in the page's language (lib/rules.generated.ts, manage.py export_rules). */
export function withWords<T>(rules: T, words: Record<string, string> | undefined): T {
  if (!words) return rules;
  const copy = structuredClone(rules) as Record<string, unknown>;
  for (const [path, text] of Object.entries(words)) {
    const keys = path.split(".");
    const last = keys.pop();
    let node: Record<string, unknown> | undefined = copy;
    for (const key of keys) node = node?.[key] as Record<string, unknown> | undefined;
    if (node && last !== undefined && typeof node[last] === "string") node[last] = text;
  }
  return copy as T;
}
