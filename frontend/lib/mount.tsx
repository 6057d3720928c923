// Mount an island: {% island "<name>" props %} (marketplace/templatetags/islands.py) renders the
// props as <script id="<name>-props"> and the root <div id="<name>-root">; the island's file is
// frontend/islands/<name>.tsx and calls mountIsland(Component, "<name>").
import { StrictMode, type ComponentType } from "react";
import { createRoot } from "react-dom/client";

export function readProps<T>(propsId: string): T {
  const el = document.getElementById(propsId);
  if (!el || !el.textContent) {
    throw new Error(`Island props #${propsId} are missing from the page.`);
  }
  return JSON.parse(el.textContent) as T;
}

/** Render `Component` with the page's props into the island's root. `name` is the island's
 * kebab-case name; the older form passes the root's and the props' element ids. */
export function mountIsland<P extends object>(Component: ComponentType<P>, name: string, propsId?: string): void {
  const root = document.getElementById(propsId === undefined ? `${name}-root` : name);
  if (!root) return;
  const props = readProps<P>(propsId ?? `${name}-props`);
  createRoot(root).render(
    <StrictMode>
      <Component {...props} />
    </StrictMode>,
  );
}
