// /admin's tabs, the WAI-ARIA tabs pattern with automatic activation, as Radix Tabs did it here: the
// open tab alone is in the Tab order (the others tabIndex -1), Left/Right (wrapping), Home and End
// move to a tab and open it, a click opens it; every panel is on the page (each tab's aria-controls
// names one), only the open one rendered. Our own (about 40 lines) instead of @radix-ui/react-tabs
// and its roving-focus group: /admin with the Market tab open stays inside the page's JavaScript
// budget with its Spanish words. The tabs and panels keep Radix's data-state ("active"), which the
// stylesheet reads.
import { type KeyboardEvent, type ReactNode, useId, useRef } from "react";

export interface TabsState<T extends string> {
  /** The ids' prefix, unique on the page. */
  prefix: string;
  value: T;
  onChange: (value: T) => void;
}

/** A prefix for one set of tabs' ids. */
export function useTabsPrefix(): string {
  return `tabs${useId().replace(/[^\w-]/g, "")}`;
}

const MOVES: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (i, last) => (i >= last ? 0 : i + 1),
  ArrowLeft: (i, last) => (i <= 0 ? last : i - 1),
  Home: () => 0,
  End: (_i, last) => last,
};

export function TabList<T extends string>({
  tabs,
  label,
  state: { prefix, value, onChange },
}: {
  tabs: { value: T; label: ReactNode }[];
  label: string;
  state: TabsState<T>;
}) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = MOVES[event.key];
    if (!step) return;
    event.preventDefault();
    const to = step(
      tabs.findIndex((tab) => tab.value === value),
      tabs.length - 1,
    );
    const next = tabs[to];
    if (!next) return;
    onChange(next.value);
    buttons.current[to]?.focus();
  };
  return (
    <div role="tablist" aria-label={label} aria-orientation="horizontal" className="tab-list">
      {tabs.map((tab, index) => {
        const open = tab.value === value;
        return (
          <button
            key={tab.value}
            ref={(button) => {
              buttons.current[index] = button;
            }}
            type="button"
            role="tab"
            id={`${prefix}-tab-${tab.value}`}
            aria-selected={open}
            aria-controls={`${prefix}-panel-${tab.value}`}
            data-state={open ? "active" : "inactive"}
            tabIndex={open ? 0 : -1}
            className="tab"
            onClick={() => onChange(tab.value)}
            onKeyDown={move}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

export function TabPanel<T extends string>({
  value,
  state: { prefix, value: open },
  children,
}: {
  value: T;
  state: TabsState<T>;
  children: ReactNode;
}) {
  const shown = value === open;
  return (
    <div
      role="tabpanel"
      id={`${prefix}-panel-${value}`}
      aria-labelledby={`${prefix}-tab-${value}`}
      data-state={shown ? "active" : "inactive"}
      hidden={!shown}
      tabIndex={0}
      className="tab-panel"
    >
      {shown ? children : null}
    </div>
  );
}
