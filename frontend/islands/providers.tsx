// /providers "Find Trusted Providers": search (bio, service area, specialties), service filter,
// the four sorts, Clear Filters, the count, badges for active filters, 6 skeleton cards while
// loading, "No Providers Found". The server filters, sorts and counts (GET /api/providers); the
// page shows PAGE_SIZE providers at a time and "Load more" asks for the next ones. "Available on" a
// date (and a time of day) keeps the providers free then; each card tells their next free window.
// "Near whom?" (a care recipient of the person's circles, the first one by default) keeps the
// helpers whose own travel distance reaches them, nearest first, each "3.2 miles away"; a
// distance filter keeps the nearer ones. The server never tells where anyone lives.
// The pages are one TanStack infinite query per set of filters (lib/query handles a lost session).
import { plural, t } from "@lingui/core/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { EmptyState } from "../components/EmptyState";
import { ProviderCard } from "../components/ProviderCard";
import { LoadingCards } from "../components/Skeleton";
import { errorMessage, getPage, isUnauthorizedError, type Page } from "../lib/api";
import { parseDateOnly, specialtyName, todayIso } from "../lib/format";
import { intlLocale } from "../lib/i18n";
import { useSchemaForm } from "../lib/forms";
import { mountQueryIsland, type SessionMeta } from "../lib/query";
import {
  DEFAULT_SORT,
  DISTANCE_SORT,
  browseDefaults,
  browseProblem,
  browseSchema,
  type BrowseValues,
} from "../lib/schemas/browse";
import type { BrowseProvider as Provider } from "../lib/types";

/** A care recipient of the person's circles ("Me" for themself), and why helpers cannot be found
 * near them yet ("" when they can). */
interface NearChoice {
  id: number;
  name: string;
  firstName: string;
  problem: string;
}

interface Props {
  services: { id: string; name: string }[];
  /** The languages a helper may speak, named in the reader's language (core.languages.SPOKEN). */
  languages?: { id: string; name: string }[];
  near: NearChoice[];
  withinChoices: number[];
}

// The choices' words are functions: read when shown, in the page's language.
const sorts = () => [
  { value: DISTANCE_SORT, label: t`Nearest first` },
  { value: "rating", label: t`Highest Rated` },
  { value: "reviews", label: t`Most Reviews` },
  { value: "rate-low", label: t`Price: Low to High` },
  { value: "rate-high", label: t`Price: High to Low` },
];
const SEARCH_DELAY_MS = 300;
const PAGE_SIZE = 24;
const dayParts = () => [
  { value: "morning", label: t`Morning (8AM - 12PM)` },
  { value: "afternoon", label: t`Afternoon (12PM - 5PM)` },
  { value: "evening", label: t`Evening (5PM - 8PM)` },
];

/** A part of the day as the "Available" filter names it ("morning"). */
function dayPartWord(part: string): string {
  const words: Record<string, string> = { morning: t`morning`, afternoon: t`afternoon`, evening: t`evening` };
  return words[part] ?? part;
}

/** The person cared for who is the viewer herself: the server names her "Me" (circles.selectors
 * near_choices), a value the page recognises and says in its own language. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- the server's value, not shown as is
const ME = "Me";

interface Filters {
  query: string;
  service: string;
  sort: string;
  day: string;
  window: string;
  near: string;
  within: string;
  language: string;
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
  if (filters.language) params.set("language", filters.language);
  if (filters.day) {
    params.set("availableOn", filters.day);
    if (filters.window) params.set("timeWindow", filters.window);
  }
  if (filters.near) {
    params.set("near", filters.near);
    if (filters.within) params.set("within", filters.within);
  }
  return `/api/providers?${params.toString()}`;
}

function unique(providers: Provider[]): Provider[] {
  const seen = new Set<number>();
  return providers.filter((p) => !seen.has(p.id) && seen.add(p.id));
}

function ProvidersBrowse({ services, languages = [], near: people = [], withinChoices = [] }: Props) {
  // The page starts near the first person who can be placed (themself first), nearest first.
  const defaults = browseDefaults(String(people.find((p) => !p.problem)?.id ?? ""));
  // The filters, applied as they change.
  const { form, values, set } = useSchemaForm<BrowseValues>({ schema: browseSchema, defaultValues: defaults });
  const {
    search = "",
    service = "",
    sort = DEFAULT_SORT,
    day = "",
    dayPart = "",
    near = "",
    within = "",
    language = "",
  } = values;
  // Someone chosen who cannot be placed yet: the page says why and lists helpers anywhere.
  const nearPerson = people.find((p) => String(p.id) === near);
  const nearProblem = nearPerson?.problem ?? "";
  const placedNear = nearPerson && !nearProblem ? near : "";
  const chooseNear = (value: string) => {
    const placed = people.some((p) => String(p.id) === value && !p.problem);
    set("near", value);
    if (!placed) set("within", "");
    // Nearest first comes with someone placed, and goes with them.
    if (placed && sort === DEFAULT_SORT) set("sort", DISTANCE_SORT);
    if (!placed && sort === DISTANCE_SORT) set("sort", DEFAULT_SORT);
  };
  const [query, setQuery] = useState(""); // the search actually sent, after typing pauses
  // After "Load more", focus moves to the first of the new providers (keyboard and screen reader users).
  const [focusId, setFocusId] = useState<number | null>(null);

  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(search.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search]);

  const filters: Filters = { query, service, sort, day, window: dayPart, near: placedNear, within, language };
  // Filters the server would refuse are not sent: the page says what it would have answered.
  const refused = browseProblem({ search: query, service, sort, day, dayPart, near: placedNear, within, language });
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
  const hasFilters =
    search.trim() !== "" ||
    service !== "" ||
    sort !== defaults.sort ||
    day !== "" ||
    dayPart !== "" ||
    near !== defaults.near ||
    within !== "" ||
    language !== "";
  const clear = () => {
    form.reset(defaults);
    setQuery("");
  };
  const nearMe = nearPerson?.name === ME;
  const nearFirst = nearPerson?.firstName ?? "";
  const nearBadge = within
    ? nearMe
      ? t`Near you, within ${within} miles`
      : t`Near ${nearFirst}, within ${within} miles`
    : nearMe
      ? t`Near you`
      : t`Near ${nearFirst}`;
  const dayText = parseDateOnly(day)?.toLocaleDateString(intlLocale(), { month: "long", day: "numeric" }) ?? day;
  const partText = dayPartWord(dayPart);
  const languageName = languages.find((l) => l.id === language)?.name ?? language;
  const chosenService = serviceName(service);
  const shownCount = providers?.length ?? 0;

  return (
    <div data-island="providers">
      <section className="card filters" aria-labelledby="filters-heading">
        <h2 id="filters-heading" className="visually-hidden">
          {t`Search and filter providers`}
        </h2>
        <div className="filters-row">
          {people.length > 0 && (
            <div className="field">
              <label htmlFor="provider-near">{t`Near whom?`}</label>
              <select id="provider-near" value={near} onChange={(e) => chooseNear(e.target.value)}>
                <option value="">{t`Anyone, anywhere`}</option>
                {people.map((p) => (
                  <option key={p.id} value={String(p.id)}>
                    {p.name === ME ? t`Me` : p.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          {placedNear && (
            <div className="field">
              <label htmlFor="provider-within">{t`Distance`}</label>
              <select id="provider-within" value={within} onChange={(e) => set("within", e.target.value)}>
                <option value="">{t`Any distance`}</option>
                {withinChoices.map((miles) => (
                  <option key={miles} value={String(miles)}>
                    {t`Within ${miles} miles`}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="field filter-search">
            <label htmlFor="provider-search">{t`Search providers`}</label>
            <input
              id="provider-search"
              type="search"
              placeholder={t`Search by skills, area or bio...`}
              value={search}
              onChange={(e) => set("search", e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="provider-service">{t`Service`}</label>
            <select id="provider-service" value={service} onChange={(e) => set("service", e.target.value)}>
              <option value="">{t`All Services`}</option>
              {services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          {languages.length > 0 && (
            <div className="field">
              <label htmlFor="provider-language">{t`Speaks`}</label>
              <select id="provider-language" value={language} onChange={(e) => set("language", e.target.value)}>
                <option value="">{t`Any language`}</option>
                {languages.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="field">
            <label htmlFor="provider-sort">{t`Sort by`}</label>
            <select id="provider-sort" value={sort} onChange={(e) => set("sort", e.target.value)}>
              {sorts()
                .filter((s) => placedNear || s.value !== DISTANCE_SORT)
                .map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="provider-day">{t`Available on`}</label>
            <input
              id="provider-day"
              type="date"
              min={todayIso()}
              value={day}
              onChange={(e) => set("day", e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="provider-day-part">{t`Time of day`}</label>
            <select id="provider-day-part" value={dayPart} onChange={(e) => set("dayPart", e.target.value)}>
              <option value="">{t`Any time that day`}</option>
              {dayParts().map((w) => (
                <option key={w.value} value={w.value}>
                  {w.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field filter-clear">
            <button type="button" className="button button-secondary" onClick={clear} disabled={!hasFilters}>
              {t`Clear Filters`}
            </button>
          </div>
        </div>
        {nearProblem && (
          <p className="notice" role="status" data-testid="near-problem">
            {nearProblem} {t`Meanwhile, here are helpers anywhere.`}
          </p>
        )}
        <div className="results-bar">
          <p role="status" className="results-count" data-testid="results-count">
            {providers === null
              ? t`Searching…`
              : plural(total, { one: "# provider found", other: "# providers found" })}
          </p>
          {(query || service || language || day || placedNear) && (
            <ul className="tag-list active-filters" aria-label={t`Active filters`}>
              {placedNear && <li className="badge badge-info">{nearBadge}</li>}
              {query && <li className="badge badge-info">{t`Search: “${query}”`}</li>}
              {service && <li className="badge badge-info">{t`Service: ${chosenService}`}</li>}
              {language && <li className="badge badge-info">{t`Speaks: ${languageName}`}</li>}
              {day && (
                <li className="badge badge-info">
                  {dayPart ? t`Available: ${dayText}, ${partText}` : t`Available: ${dayText}`}
                </li>
              )}
            </ul>
          )}
        </div>
      </section>

      {providers === null ? (
        <LoadingCards count={6} label={t`Loading providers…`} className="grid provider-grid" />
      ) : providers.length === 0 ? (
        <EmptyState
          title={t`No Providers Found`}
          headingLevel={2}
          action={
            hasFilters ? (
              <button type="button" className="button button-secondary" onClick={clear}>
                {t`Clear Filters`}
              </button>
            ) : undefined
          }
        >
          <p>
            {failed
              ? t`We couldn't load providers right now: ${failed}`
              : placedNear
                ? nearMe
                  ? t`No helper who travels as far as your home matches these filters. Try a wider distance or another service, or choose "Anyone, anywhere".`
                  : t`No helper who travels as far as ${nearFirst}'s home matches these filters. Try a wider distance or another service, or choose "Anyone, anywhere".`
                : t`Try a different search, service or day, or clear the filters to see every provider.`}
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
              <p className="muted">{t`Showing ${shownCount} of ${total} providers.`}</p>
              {more === "failed" && (
                <p className="field-error" role="alert">
                  {t`We couldn't load more providers. Please try again.`}
                </p>
              )}
              <button
                type="button"
                className="button button-secondary"
                aria-disabled={more === "loading"}
                onClick={() => void loadMore()}
              >
                {more === "loading" ? t`Loading more providers…` : t`Load more providers`}
              </button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

mountQueryIsland(ProvidersBrowse, "providers");
