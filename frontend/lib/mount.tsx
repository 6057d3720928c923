// Mount an island: {% island "<name>" props %} (marketplace/templatetags/islands.py) renders the
// props as <script id="<name>-props"> and the root <div id="<name>-root">; the island's file is
// frontend/islands/<name>.tsx and calls mountIsland(Component, "<name>") (or lib/query's
// mountQueryIsland when it reads server data). The island renders once the page's language is
// active and its own catalogue loaded (lib/i18n.ts), so its first words are already in that language.
import { I18nProvider } from "@lingui/react";
import { StrictMode, type ComponentType, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { i18n, ready } from "./i18n";

export function readProps<T>(propsId: string): T {
  const el = document.getElementById(propsId);
  if (!el || !el.textContent) {
    throw new Error(`Island props #${propsId} are missing from the page.`);
  }
  return JSON.parse(el.textContent) as T;
}

/** Render `island` into `root` in the page's language (Lingui's provider around it), once the
 * catalogue of the island `name` (frontend/islands/<name>.tsx) is loaded. */
export function renderIsland(root: HTMLElement, island: ReactNode, name: string): void {
  void ready(name).then(() =>
    createRoot(root).render(
      <StrictMode>
        <I18nProvider i18n={i18n}>{island}</I18nProvider>
      </StrictMode>,
    ),
  );
}

/** Render `Component` with the page's props into the island's root. `wrap` puts providers around
 * the island (lib/query's mountQueryIsland: the page's QueryClient), so pages that need none
 * (landing, login) do not ship them. */
export function mountIsland<P extends object>(
  Component: ComponentType<P>,
  name: string,
  wrap: (island: ReactNode) => ReactNode = (island) => island,
): void {
  const root = document.getElementById(`${name}-root`);
  if (!root) return;
  const props = readProps<P>(`${name}-props`);
  renderIsland(root, wrap(<Component {...props} />), name);
}
