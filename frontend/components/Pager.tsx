// Previous / Next through the pages of a server-side list, with where we are in words
// ("Showing 21-40 of 150", "Page 2 of 8"). The buttons stay focusable at the ends
// (aria-disabled), so a keyboard user pressing Next on the last page keeps their place.
import { t } from "@lingui/core/macro";
export function Pager({
  label,
  total,
  offset,
  pageSize,
  busy = false,
  onPage,
  testId = "pager",
}: {
  /** What is paged, e.g. "Verified Providers": the navigation is "Verified Providers pages". */
  label: string;
  total: number;
  offset: number;
  pageSize: number;
  busy?: boolean;
  onPage: (offset: number) => void;
  testId?: string;
}) {
  if (total <= pageSize) return null;
  const page = Math.floor(offset / pageSize) + 1;
  const pages = Math.ceil(total / pageSize);
  const first = offset + 1;
  const last = Math.min(offset + pageSize, total);
  const go = (to: number) => {
    if (busy || to < 1 || to > pages) return;
    onPage((to - 1) * pageSize);
  };
  return (
    <nav className="pager" aria-label={t`${label} pages`} data-testid={testId}>
      <button
        type="button"
        className="button button-secondary"
        aria-disabled={page <= 1 || busy}
        onClick={() => go(page - 1)}
      >
        {t`Previous`}
        <span className="visually-hidden"> {t`page of ${label}`}</span>
      </button>
      <p className="pager-status" aria-live="polite">
        <span data-testid={`${testId}-page`}>{t`Page ${page} of ${pages}`}</span>
        <span className="muted"> {t`(showing ${first}–${last} of ${total})`}</span>
      </p>
      <button
        type="button"
        className="button button-secondary"
        aria-disabled={page >= pages || busy}
        onClick={() => go(page + 1)}
      >
        {t`Next`}
        <span className="visually-hidden"> {t`page of ${label}`}</span>
      </button>
    </nav>
  );
}
