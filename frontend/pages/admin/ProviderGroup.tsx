// One status's providers on /admin (Pending Approval, Verified, Rejected), a page at a time.
import { t } from "@lingui/core/macro";
import { useEffect, useRef } from "react";
import { EmptyState } from "../../components/EmptyState";
import { Pager } from "../../components/Pager";
import type { Provider } from "../../lib/types";
import { usePagedList } from "../../lib/usePagedList";
import { ListState } from "./ListParts";
import { ProviderCard } from "./ProviderCard";
import { PROVIDERS, PROVIDERS_PER_PAGE, type Verdict } from "./common";

/** Each group's id (its heading's, the summary's link "#group-pending-approval", the test ids), in
 * English whatever the page's language. */
const GROUP_IDS: Partial<Record<Provider["verificationStatus"], string>> = {
  pending: "group-pending-approval",
  verified: "group-verified-providers",
  rejected: "group-rejected-providers",
};

/** One status's providers, a page at a time, from the server (which searches them too). */
export function ProviderGroup({
  title,
  status,
  search,
  onStatus,
  busyId,
  focus = false,
  onFocused,
}: {
  title: string;
  status: Provider["verificationStatus"];
  search: string;
  onStatus: (p: Provider, s: Verdict) => void;
  busyId: number | null;
  /** Move focus to this group's heading (once it is on the page), then call onFocused. */
  focus?: boolean;
  onFocused?: () => void;
}) {
  const id = GROUP_IDS[status] ?? `group-${status}`;
  const heading = useRef<HTMLHeadingElement>(null);
  // An approval or rejection invalidates every page of the providers (ProvidersTab).
  const { list, offset, setOffset, pageSize } = usePagedList<Provider>(
    PROVIDERS,
    { status, search },
    PROVIDERS_PER_PAGE,
  );
  useEffect(() => {
    if (!focus || !heading.current) return;
    heading.current.focus({ preventScroll: true });
    heading.current.scrollIntoView({ block: "start" });
    onFocused?.();
  }, [focus, onFocused]);
  const toPage = (to: number) => {
    setOffset(to);
    heading.current?.focus({ preventScroll: true });
  };
  return (
    <section className="admin-group" aria-labelledby={id} data-testid={id}>
      <h3 id={id} tabIndex={-1} ref={heading}>
        {title}{" "}
        <span className="muted" data-testid={`${id}-total`}>
          ({list.total ?? "–"})
        </span>
      </h3>
      <ListState list={list} empty={<EmptyState title={t`No providers found`} headingLevel={4} />}>
        {(items) => (
          <ul className="grid plain-list">
            {items.map((p) => (
              <ProviderCard key={p.id} provider={p} busy={busyId === p.id} onStatus={(s) => onStatus(p, s)} />
            ))}
          </ul>
        )}
      </ListState>
      <Pager
        label={title}
        total={list.total ?? 0}
        offset={offset}
        pageSize={pageSize}
        busy={list.state === "loading"}
        onPage={toPage}
        testId={`${id}-pager`}
      />
    </section>
  );
}
