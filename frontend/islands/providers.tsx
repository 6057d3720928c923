// /providers "Find Trusted Providers": search (bio, service area, specialties), service filter,
// the four sorts, Clear Filters, the count, badges for active filters, 6 skeleton cards while
// loading, "No Providers Found". The server filters and sorts (GET /api/providers).
import { useEffect, useRef, useState } from "react";
import { Avatar } from "../components/Avatar";
import { EmptyState } from "../components/EmptyState";
import { LoadingCards } from "../components/Skeleton";
import { StarRating } from "../components/StarRating";
import { api, errorMessage, handleLoggedOut, isUnauthorizedError } from "../lib/api";
import { formatMoney, personName, specialtyName } from "../lib/format";
import { mountIsland } from "../lib/mount";
import type { Provider } from "../lib/types";

interface Props {
  services: { id: string; name: string }[];
}

const SORTS = [
  { value: "rating", label: "Highest Rated" },
  { value: "reviews", label: "Most Reviews" },
  { value: "rate-low", label: "Price: Low to High" },
  { value: "rate-high", label: "Price: High to Low" },
];
const DEFAULT_SORT = "rating";
const SEARCH_DELAY_MS = 300;
const MAX_CHIPS = 3;

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
          <h3 id={headingId} className="provider-name">
            {name}
          </h3>
          {first && <p className="provider-specialty muted">{serviceName(first)}</p>}
        </div>
        {provider.verificationStatus === "verified" && <span className="badge badge-success">Verified</span>}
      </div>
      <StarRating rating={provider.rating} reviews={provider.totalReviews} />
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
        <a className="button button-primary" href="/login" aria-label={`Contact ${name}`}>
          Contact
        </a>
      </div>
    </article>
  );
}

function ProvidersBrowse({ services }: Props) {
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState(""); // the search actually sent, after typing pauses
  const [service, setService] = useState("");
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [providers, setProviders] = useState<Provider[] | null>(null);
  const [failed, setFailed] = useState("");
  const requestSeq = useRef(0);

  useEffect(() => {
    const t = window.setTimeout(() => setQuery(search.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(t);
  }, [search]);

  useEffect(() => {
    const seq = ++requestSeq.current;
    const params = new URLSearchParams({ verified: "true", sort, limit: "200" });
    if (query) params.set("search", query);
    if (service) params.set("specialty", service);
    setProviders(null);
    setFailed("");
    api
      .get<Provider[]>(`/api/providers?${params.toString()}`)
      .then((list) => {
        if (seq === requestSeq.current) setProviders(list);
      })
      .catch((error: unknown) => {
        if (seq !== requestSeq.current) return;
        if (isUnauthorizedError(error)) {
          handleLoggedOut("/api/login");
          return;
        }
        setFailed(errorMessage(error));
        setProviders([]);
      });
  }, [query, service, sort]);

  const serviceName = (id: string) => services.find((s) => s.id === id)?.name ?? specialtyName(id);
  const hasFilters = search.trim() !== "" || service !== "" || sort !== DEFAULT_SORT;
  const clear = () => {
    setSearch("");
    setQuery("");
    setService("");
    setSort(DEFAULT_SORT);
  };
  const count = providers?.length ?? 0;

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
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="provider-service">Service</label>
            <select id="provider-service" value={service} onChange={(e) => setService(e.target.value)}>
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
            <select id="provider-sort" value={sort} onChange={(e) => setSort(e.target.value)}>
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
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
          {(query || service) && (
            <ul className="tag-list active-filters" aria-label="Active filters">
              {query && <li className="badge badge-info">Search: “{query}”</li>}
              {service && <li className="badge badge-info">Service: {serviceName(service)}</li>}
            </ul>
          )}
        </div>
      </section>

      {providers === null ? (
        <LoadingCards count={6} label="Loading providers…" className="grid provider-grid" />
      ) : providers.length === 0 ? (
        <EmptyState title="No Providers Found" headingLevel={2} action={hasFilters ? (
          <button type="button" className="button button-secondary" onClick={clear}>Clear Filters</button>
        ) : undefined}>
          <p>
            {failed
              ? `We couldn't load providers right now: ${failed}`
              : "Try a different search or service, or clear the filters to see every provider."}
          </p>
        </EmptyState>
      ) : (
        <div className="grid provider-grid" data-testid="provider-grid">
          {providers.map((p) => (
            <ProviderCard key={p.id} provider={p} serviceName={serviceName} />
          ))}
        </div>
      )}
    </div>
  );
}

mountIsland(ProvidersBrowse, "providers-root", "providers-props");
