// A table of /admin (all bookings, all service requests): search, status filter, count, rows, pager.
import type { ReactNode } from "react";
import { EmptyState } from "../../components/EmptyState";
import { Pager } from "../../components/Pager";
import { usePagedList } from "../../lib/usePagedList";
import { FoundCount, ListState, SearchBox, StatusFilter, TableRegion, useListFilters } from "./ListParts";
import { ROWS_PER_PAGE } from "./common";

/** One of the admin's tables: its search and status filter, "N found", a page of rows and the
 * pager, all from the server (`/api/admin/*` with `?search=`, `?status=` and paging). */
export function FilteredTable<T extends { id: number }>({
  url,
  title,
  noun,
  words,
  statuses,
  searchLabel,
  searchPlaceholder,
  columns,
  row,
}: {
  url: string;
  title: string;
  /** The names in its ids (never shown): #request-search, the test ids requests-found and requests-pager. */
  noun: { id: string; many: string };
  /** Its texts, in the page's language: "12 requests found", "No service requests found" (a search
   * or a filter on), "No service requests yet". */
  words: { found: (count: number) => string; noneFound: string; noneYet: string };
  statuses: string[];
  searchLabel: string;
  searchPlaceholder: string;
  columns: string[];
  row: (item: T) => ReactNode;
}) {
  const filters = useListFilters();
  const { search } = filters;
  const { status } = filters.values;
  const { list, offset, setOffset, pageSize } = usePagedList<T>(url, { search, status }, ROWS_PER_PAGE);
  return (
    <>
      <h3>{title}</h3>
      <div className="filters-row admin-filters">
        <SearchBox
          id={`${noun.id}-search`}
          label={searchLabel}
          placeholder={searchPlaceholder}
          value={filters.values.search}
          onChange={(value) => filters.set("search", value)}
        />
        <StatusFilter
          id={`${noun.id}-status`}
          value={status}
          options={statuses}
          onChange={(value) => filters.set("status", value)}
        />
      </div>
      <FoundCount list={list} found={words.found} testId={`${noun.many}-found`} />
      <ListState
        list={list}
        empty={<EmptyState title={search || status ? words.noneFound : words.noneYet} headingLevel={4} />}
      >
        {(items) => (
          <TableRegion label={title}>
            <table className="data-table">
              <thead>
                <tr>
                  {columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>{items.map((item) => row(item))}</tbody>
            </table>
          </TableRegion>
        )}
      </ListState>
      <Pager
        label={title}
        total={list.total ?? 0}
        offset={offset}
        pageSize={pageSize}
        busy={list.state === "loading"}
        onPage={setOffset}
        testId={`${noun.many}-pager`}
      />
    </>
  );
}
