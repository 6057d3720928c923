// /providers "Find Trusted Providers": search (bio, service area, specialties), service filter,
// the four sorts, Clear Filters, the count, badges for active filters, 6 skeleton cards while
// loading, "No Providers Found". The server filters, sorts and counts (GET /api/providers); the
// page shows PAGE_SIZE providers at a time and "Load more" asks for the next ones. "Available on" a
// date (and a time of day) keeps the providers free then; each card tells their next free window.
// The pages are one TanStack infinite query per set of filters (lib/query handles a lost session).
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Avatar } from "../components/Avatar";
import { EmptyState } from "../components/EmptyState";
import { LoadingCards } from "../components/Skeleton";
import { StarRating } from "../components/StarRating";
import { errorMessage, getPage, isUnauthorizedError, type Page } from "../lib/api";
import { formatMoney, parseDateOnly, personName, specialtyName, todayIso } from "../lib/format";
import { useSchemaForm } from "../lib/forms";
import { mountQueryIsland, type SessionMeta } from "../lib/query";
import { BROWSE_DEFAULTS, DEFAULT_SORT, browseProblem, browseSchema, type BrowseValues } from "../lib/schemas/browse";
import type { BrowseProvider as Provider, NextFreeWindow } from "../lib/types";

interface Props {
  services: { id: string; name: string }[];
}

const SORTS = [
  { value: "rating", label: "Highest Rated" },
  { value: "reviews", label: "Most Reviews" },
  { value: "rate-low", label: "Price: Low to High" },
  { value: "rate-high", label: "Price: High to Low" },
];
const SEARCH_DELAY_MS = 300;
const MAX_CHIPS = 3;
const PAGE_SIZE = 24;
const DAY_PARTS = [
  { value: "morning", label: "Morning (8AM - 12PM)" },
  { value: "afternoon", label: "Afternoon (12PM - 5PM)" },
  { value: "evening", label: "Evening (5PM - 8PM)" },
];

interface Filters {
  query: string;
  service: string;
  sort: string;
  day: string;
  window: string;
}

/** "Next free: Tuesday, November 24, morning", or that there is none in the next two weeks. */
function nextFreeText(next: NextFreeWindow | null | undefined): string {
  const day = next ? parseDateOnly(next.date) : null;
  if (!next || !day) return "No free time in the next 2 weeks";
  const date = day.toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric" });
  return `Next free: ${date}, ${next.timeWindow}`;
}

/** A lost session signs in again through /api/login (spec section 8). */
const SESSION: SessionMeta = { loginTarget: "/api/login" };

/** One page of the verified providers matching the filters. */
function providersPath(filters: Filters, offset: number): string {
  const params = new URLSearchParams({
    verified: "true",
    sort: filters.sort,
    limit: String(PAGE_SIZE),
    offset: String(offset),
  });
  if (filters.query) params.set("search", filters.query);
  if (filters.service) params.set("specialty", filters.service);
  if (filters.day) {
    params.set("availableOn", filters.day);
    if (filters.window) params.set("timeWindow", filters.window);
  }
  return `/api/providers?${params.toString()}`;
}

function unique(providers: Provider[]): Provider[] {
  const seen = new Set<number>();
  return providers.filter((p) => !seen.has(p.id) && seen.add(p.id));
}

function ProviderCard({ provider, serviceName }: { provider: Provider; serviceName: (id: string) => string }) {
  const name = personName(provider.user) || "Kindly provider";
  const chips = provider.specialties.slice(0, MAX_CHIPS);
  const more = provider.specialties.length - chips.length;
  const first = provider.specialties[0];
  const headingId = `provider-${provider.id}-name`;
  return (
    <article className="card provider-card" aria-labelledby={headingId} data-testid="provider-card">
      <div className="provider-card-head">
        <Avatar firstName={provider.user.firstName} imageUrl={provider.user.profileImageUrl} />
        <div>
          <h3 id={headingId} className="provider-name" tabIndex={-1}>
            {name}
          </h3>
          {first && <p className="provider-specialty muted">{serviceName(first)}</p>}
        </div>
        {provider.verificationStatus === "verified" && <span className="badge badge-success">Verified</span>}
      </div>
      <StarRating rating={provider.rating} reviews={provider.totalReviews} />
      <p className="provider-next-free" data-testid="next-free">
        {nextFreeText(provider.nextFreeWindow)}
      </p>
      {provider.bio && <p className="provider-bio">{provider.bio}</p>}
      {provider.serviceArea && (
        <p className="provider-area">
          <span className="label">Service area:</span> {provider.serviceArea}
        </p>
      )}
      {chips.length > 0 && (
        <ul className="tag-list" aria-label="Services offered">
          {chips.map((s) => (
            <li key={s} className="tag">
              {serviceName(s)}
            </li>
          ))}
          {more > 0 && <li className="tag tag-more">+{more} more</li>}
        </ul>
      )}
      <div className="provider-card-foot">
        <p className="provider-rate">
          <strong>{formatMoney(provider.hourlyRate ?? 30)}</strong>
          <span className="muted">/hour</span>
        </p>
        {/* A request sent to this provider directly, their service chosen. */}
        <a
          className="button button-primary"
          href={`/request-service?provider=${provider.id}`}
          aria-label={`Request this helper: ${name}`}
        >
          Request this helper
        </a>
      </div>
    </article>
  );
}

function ProvidersBrowse({ services }: Props) {
  // The filters, applied as they change.
  const {
    form,
    values: { search, service, sort, day, dayPart },
    set,
  } = useSchemaForm<BrowseValues>({ schema: browseSchema, defaultValues: BROWSE_DEFAULTS });
  const [query, setQuery] = useState(""); // the search actually sent, after typing pauses
  // After "Load more", focus moves to the first of the new providers (keyboard and screen reader users).
  const [focusId, setFocusId] = useState<number | null>(null);

  useEffect(() => {
    const t = window.setTimeout(() => setQuery(search.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(t);
  }, [search]);

  const filters: Filters = { query, service, sort, day, window: dayPart };
  // Filters the server would refuse are not sent: the page says what it would have answered.
  const refused = browseProblem({ search: query, service, sort, day, dayPart });
  const pages = useInfiniteQuery({
    enabled: !refused,
    queryKey: ["/api/providers", filters],
    queryFn: ({ pageParam }) => getPage<Provider>(providersPath(filters, pageParam)),
    initialPageParam: 0,
    // The next page starts after every provider the server has sent so far.
    getNextPageParam: (last: Page<Provider>, all: Page<Provider>[]) => {
      const sent = all.reduce((n, page) => n + page.items.length, 0);
      return sent < last.total && last.items.length > 0 ? sent : undefined;
    },
    meta: SESSION,
  });
  // A lost session is lib/query's (the cards stay "loading" until the sign-in page); another failure says so.
  const failed =
    refused ||
    (pages.isError && !pages.isFetchNextPageError && !isUnauthorizedError(pages.error)
      ? errorMessage(pages.error)
      : "");
  // A provider verified since the first page may shift the list: never show one twice.
  const providers =
    pages.data && !refused ? unique(pages.data.pages.flatMap((page) => page.items)) : failed ? [] : null;
  const total = refused ? 0 : (pages.data?.pages.at(-1)?.total ?? 0);
  const more = pages.isFetchingNextPage ? "loading" : pages.isFetchNextPageError ? "failed" : "idle";

  const loadMore = async () => {
    if (!providers || pages.isFetchingNextPage) return;
    const shown = new Set(providers.map((p) => p.id));
    const result = await pages.fetchNextPage();
    const added = (result.data?.pages.flatMap((page) => page.items) ?? []).find((p) => !shown.has(p.id));
    if (added && !result.isError) setFocusId(added.id);
  };

  useEffect(() => {
    if (focusId === null) return;
    document.getElementById(`provider-${focusId}-name`)?.focus();
    setFocusId(null);
  }, [focusId]);

  const serviceName = (id: string) => services.find((s) => s.id === id)?.name ?? specialtyName(id);
  const hasFilters = search.trim() !== "" || service !== "" || sort !== DEFAULT_SORT || day !== "" || dayPart !== "";
  const clear = () => {
    form.reset(BROWSE_DEFAULTS);
    setQuery("");
  };
  const count = total;

  return (
    <div data-island="providers">
      <section className="card filters" aria-labelledby="filters-heading">
        <h2 id="filters-heading" className="visually-hidden">
          Search and filter providers
        </h2>
        <div className="filters-row">
          <div className="field filter-search">
            <label htmlFor="provider-search">Search providers</label>
            <input
              id="provider-search"
              type="search"
              placeholder="Search by skills, area or bio..."
              value={search}
              onChange={(e) => set("search", e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="provider-service">Service</label>
            <select id="provider-service" value={service} onChange={(e) => set("service", e.target.value)}>
              <option value="">All Services</option>
              {services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="provider-sort">Sort by</label>
            <select id="provider-sort" value={sort} onChange={(e) => set("sort", e.target.value)}>
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="provider-day">Available on</label>
            <input
              id="provider-day"
              type="date"
              min={todayIso()}
              value={day}
              onChange={(e) => set("day", e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="provider-day-part">Time of day</label>
            <select id="provider-day-part" value={dayPart} onChange={(e) => set("dayPart", e.target.value)}>
              <option value="">Any time that day</option>
              {DAY_PARTS.map((w) => (
                <option key={w.value} value={w.value}>
                  {w.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field filter-clear">
            <button type="button" className="button button-secondary" onClick={clear} disabled={!hasFilters}>
              Clear Filters
            </button>
          </div>
        </div>
        <div className="results-bar">
          <p role="status" className="results-count" data-testid="results-count">
            {providers === null ? "Searching…" : `${count} ${count === 1 ? "provider" : "providers"} found`}
          </p>
          {(query || service || day) && (
            <ul className="tag-list active-filters" aria-label="Active filters">
              {query && <li className="badge badge-info">Search: “{query}”</li>}
              {service && <li className="badge badge-info">Service: {serviceName(service)}</li>}
              {day && (
                <li className="badge badge-info">
                  Available: {parseDateOnly(day)?.toLocaleDateString("en-US", { month: "long", day: "numeric" }) ?? day}
                  {dayPart ? `, ${dayPart}` : ""}
                </li>
              )}
            </ul>
          )}
        </div>
      </section>

      {providers === null ? (
        <LoadingCards count={6} label="Loading providers…" className="grid provider-grid" />
      ) : providers.length === 0 ? (
        <EmptyState
          title="No Providers Found"
          headingLevel={2}
          action={
            hasFilters ? (
              <button type="button" className="button button-secondary" onClick={clear}>
                Clear Filters
              </button>
            ) : undefined
          }
        >
          <p>
            {failed
              ? `We couldn't load providers right now: ${failed}`
              : "Try a different search, service or day, or clear the filters to see every provider."}
          </p>
        </EmptyState>
      ) : (
        <>
          <div className="grid provider-grid" data-testid="provider-grid">
            {providers.map((p) => (
              <ProviderCard key={p.id} provider={p} serviceName={serviceName} />
            ))}
          </div>
          {providers.length < total && (
            <div className="load-more" data-testid="load-more">
              <p className="muted">
                Showing {providers.length} of {total} providers.
              </p>
              {more === "failed" && (
                <p className="field-error" role="alert">
                  We couldn't load more providers. Please try again.
                </p>
              )}
              <button
                type="button"
                className="button button-secondary"
                aria-disabled={more === "loading"}
                onClick={() => void loadMore()}
              >
                {more === "loading" ? "Loading more providers…" : "Load more providers"}
              </button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

mountQueryIsland(ProvidersBrowse, "providers");
