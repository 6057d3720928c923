// Mount an island: props come from the page's {{ props|json_script:"<id>" }} element.
import { StrictMode, type ComponentType, type ReactNode } from "react";
import { createRoot } from "react-dom/client";

export function readProps<T>(propsId: string): T {
  const el = document.getElementById(propsId);
  if (!el || !el.textContent) {
    throw new Error(`Island props #${propsId} are missing from the page.`);
  }
  return JSON.parse(el.textContent) as T;
}

/** `wrap` puts providers around the island (lib/query's mountQueryIsland: the page's QueryClient),
 * so pages that need none (landing, login) do not ship them. */
export function mountIsland<P extends object>(
  Component: ComponentType<P>,
  rootId: string,
  propsId: string,
  wrap: (island: ReactNode) => ReactNode = (island) => island,
): void {
  const root = document.getElementById(rootId);
  if (!root) return;
  const props = readProps<P>(propsId);
  createRoot(root).render(<StrictMode>{wrap(<Component {...props} />)}</StrictMode>);
}
