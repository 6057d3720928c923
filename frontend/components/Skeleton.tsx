// Loading placeholders. The grey shapes are hidden from assistive tech; the container says
// "Loading…" once, politely.
import { t } from "@lingui/core/macro";
import type { ReactNode } from "react";

export function Skeleton({
  width = "100%",
  height = "1rem",
  className,
}: {
  width?: string;
  height?: string;
  className?: string;
}) {
  return (
    <span className={`skeleton${className ? ` ${className}` : ""}`} style={{ width, height }} aria-hidden="true" />
  );
}

export function SkeletonCard() {
  return (
    <div className="card skeleton-card" aria-hidden="true" data-testid="skeleton-card">
      <div className="skeleton-row">
        <Skeleton width="3.5rem" height="3.5rem" className="skeleton-circle" />
        <div className="skeleton-stack">
          <Skeleton width="60%" height="1.2rem" />
          <Skeleton width="40%" />
        </div>
      </div>
      <Skeleton />
      <Skeleton width="85%" />
      <Skeleton width="50%" />
    </div>
  );
}

/** A region that is busy loading: announces `label` and shows `count` skeleton cards. */
export function LoadingCards({
  count,
  label,
  className = "grid",
}: {
  count: number;
  label?: string;
  className?: string;
}) {
  return (
    <div className={className} aria-busy="true">
      <p className="visually-hidden" role="status">
        {label ?? t`Loading…`}
      </p>
      {Array.from({ length: count }, (_, i) => (
        <SkeletonCard key={i} />
      ))}
    </div>
  );
}

export function LoadingText({ children }: { children?: ReactNode }) {
  return (
    <p className="muted" role="status">
      {children ?? t`Loading…`}
    </p>
  );
}
