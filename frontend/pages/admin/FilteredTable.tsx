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
  statuses,
  searchLabel,
  searchPlaceholder,
  columns,
  row,
}: {
  url: string;
  title: string;
  /** The names in its ids and texts: #request-search, "12 requests found" (requests-found), "No service requests yet". */
  noun: { id: string; one: string; many: string; all: string };
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
      <FoundCount list={list} one={noun.one} many={noun.many} testId={`${noun.many}-found`} />
      <ListState
        list={list}
        empty={<EmptyState title={search || status ? `No ${noun.all} found` : `No ${noun.all} yet`} headingLevel={4} />}
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
