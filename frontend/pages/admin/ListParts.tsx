// The parts of the admin's lists: count cards, a list's loading and empty states, the search box,
// the status filter and its form, "N found", and the scroll region of a wide table.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type ReactNode, useCallback, useState } from "react";
import { LoadingText } from "../../components/Skeleton";
import { statusLabel } from "../../lib/format";
import type { ListFilterValues } from "../../lib/schemas/admin";
import { type PagedList, useDebounced } from "../../lib/usePagedList";

/** A count card: `key` names it in its test id, in English whatever the page's language ("count-Verified"). */
export interface CountCard {
  key: string;
  label: string;
  value: number | string;
}

export function CountCards({ cards, label }: { cards: CountCard[]; label: string }) {
  return (
    <ul className="count-cards" aria-label={label}>
      {cards.map((c) => (
        <li key={c.key} className="card count-card" data-testid={`count-${c.key}`}>
          <span className="count-label">{c.label}</span>
          <span className="count-value">{c.value}</span>
        </li>
      ))}
    </ul>
  );
}

/** A page of a list: loading (the first time), could not load, or its rows (kept, marked busy,
 * while the next page loads). */
export function ListState<T>({
  list,
  empty,
  children,
}: {
  list: PagedList<T>;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  if (list.state === "error") {
    return (
      <p className="field-error" role="alert">
        <Trans>Could not load this list. Please refresh the page.</Trans>
      </p>
    );
  }
  if (list.state === "loading" && list.total === null) return <LoadingText />;
  if (list.state === "ready" && list.items.length === 0) return <>{empty}</>;
  return <div aria-busy={list.state === "loading"}>{children(list.items)}</div>;
}

/** A search box that asks the server once typing pauses, and says how many it found. */
export function SearchBox({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field search-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" placeholder={placeholder} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

const NO_FILTER: ListFilterValues = { search: "", status: "" };

/** A list's search and status filter: the values typed, and the search the server is asked once
 * typing pauses (trimmed). Plain state, not a form: nothing is submitted, and a search the server
 * refuses shows as the list's error. So /admin's first load carries no form library (it loads
 * with the first dialog opened). */
export function useListFilters() {
  const [values, setValues] = useState<ListFilterValues>(NO_FILTER);
  const set = useCallback(
    (name: keyof ListFilterValues, value: string) => setValues((prev) => ({ ...prev, [name]: value })),
    [],
  );
  const search = useDebounced(values.search.trim());
  return { values, set, search };
}

export function StatusFilter({
  id,
  value,
  options,
  onChange,
}: {
  id: string;
  value: string;
  options: string[];
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        <Trans>Status</Trans>
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t`All statuses`}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {statusLabel(o)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "12 bookings found" under the filters, announced politely: `found` says the count in words. */
export function FoundCount({
  list,
  found,
  testId,
}: {
  list: PagedList<unknown>;
  found: (count: number) => string;
  testId: string;
}) {
  return (
    <p role="status" className="results-count" data-testid={testId}>
      {list.total === null ? t`Searching…` : found(list.total)}
    </p>
  );
}

export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  // Focusable so keyboard users can scroll a wide table at 320 px or 200% zoom.
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
