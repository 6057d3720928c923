// Mount an island: {% island "<name>" props %} (marketplace/templatetags/islands.py) renders the
// props as <script id="<name>-props"> and the root <div id="<name>-root">; the island's file is
// frontend/islands/<name>.tsx and calls mountIsland(Component, "<name>") (or lib/query's
// mountQueryIsland when it reads server data).
import { StrictMode, type ComponentType, type ReactNode } from "react";
import { createRoot } from "react-dom/client";

export function readProps<T>(propsId: string): T {
  const el = document.getElementById(propsId);
  if (!el || !el.textContent) {
    throw new Error(`Island props #${propsId} are missing from the page.`);
  }
  return JSON.parse(el.textContent) as T;
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
  createRoot(root).render(<StrictMode>{wrap(<Component {...props} />)}</StrictMode>);
}
