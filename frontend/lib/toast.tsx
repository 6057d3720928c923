// Toasts (spec "Toasts"): one at a time, a new one replaces the old, 5000 ms, default and
// destructive looks, swipe right to dismiss (threshold 50), F8 focuses the region.
// Any island calls toast(); the single <Toaster/> (islands/toaster.tsx, on every page) shows it.
// Our own few lines rather than Radix Toast: the toaster is on every page, and Radix's toast
// and its shared parts were 12 KB gzipped of each page's JavaScript.
import { t } from "@lingui/core/macro";
import { useEffect, useRef, useState, type PointerEvent } from "react";

export type ToastVariant = "default" | "destructive";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  duration?: number;
}

const TOAST_EVENT = "kindly:toast";
const DEFAULT_DURATION = 5000;

export function toast(input: ToastInput): void {
  window.dispatchEvent(new CustomEvent<ToastInput>(TOAST_EVENT, { detail: input }));
}

interface ShownToast extends ToastInput {
  key: number;
}

function queuedFromServer(): ToastInput[] {
  const el = document.getElementById("toaster-props");
  if (!el?.textContent) return [];
  try {
    const parsed = JSON.parse(el.textContent) as unknown;
    return Array.isArray(parsed) ? (parsed as ToastInput[]) : [];
  } catch {
    return [];
  }
}

const SWIPE_THRESHOLD = 50;

export function Toaster() {
  const [current, setCurrent] = useState<ShownToast | null>(null);
  const [paused, setPaused] = useState(false);
  const [swipeX, setSwipeX] = useState<number | null>(null);
  const swipeStart = useRef<number | null>(null);
  const regionRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let counter = 0;
    const show = (input: ToastInput) => {
      counter += 1;
      setCurrent({ ...input, key: counter });
      setSwipeX(null);
    };
    const onToast = (event: Event) => show((event as CustomEvent<ToastInput>).detail);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") regionRef.current?.focus();
    };
    window.addEventListener(TOAST_EVENT, onToast);
    window.addEventListener("keydown", onKey);
    // Messages the server queued with a redirect: the newest one replaces any older one.
    const queued = queuedFromServer();
    const last = queued[queued.length - 1];
    if (last) show(last);
    return () => {
      window.removeEventListener(TOAST_EVENT, onToast);
      window.removeEventListener("keydown", onKey);
    };
  }, []);

  // Closes after its duration; the clock waits while the pointer or the focus is on it.
  useEffect(() => {
    if (!current || paused) return;
    const timer = window.setTimeout(() => setCurrent(null), current.duration ?? DEFAULT_DURATION);
    return () => window.clearTimeout(timer);
  }, [current, paused]);

  const onPointerDown = (event: PointerEvent) => {
    if ((event.target as HTMLElement).closest("button")) return;
    swipeStart.current = event.clientX;
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent) => {
    if (swipeStart.current !== null) setSwipeX(Math.max(0, event.clientX - swipeStart.current));
  };
  const onPointerUp = (event: PointerEvent) => {
    if (swipeStart.current === null) return;
    const moved = event.clientX - swipeStart.current;
    swipeStart.current = null;
    setSwipeX(null);
    if (moved > SWIPE_THRESHOLD) setCurrent(null);
  };

  const variant = current?.variant ?? "default";
  const shown = current && (
    <div
      key={current.key}
      className={`toast toast-${variant}`}
      data-testid="toast"
      data-variant={variant}
      data-swipe={swipeX === null ? undefined : "move"}
      style={swipeX === null ? undefined : { transform: `translateX(${swipeX}px)` }}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        swipeStart.current = null;
        setSwipeX(null);
      }}
    >
      <div className="toast-text">
        <p className="toast-title">{current.title}</p>
        {current.description && <p className="toast-description">{current.description}</p>}
      </div>
      <button
        type="button"
        className="toast-close"
        aria-label={t`Dismiss notification`}
        onClick={() => {
          setCurrent(null);
          setPaused(false);
        }}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
  // Both live regions are always in the page, so a toast put in one is announced: a destructive
  // one at once (assertive), the others when the reader is free (polite).
  return (
    <div
      ref={regionRef}
      className="toast-viewport"
      role="region"
      aria-label={t`Notifications (F8)`}
      tabIndex={-1}
      // Empty, the corner it covers stays clickable.
      style={current ? undefined : { pointerEvents: "none" }}
    >
      <div aria-live="polite" aria-atomic="true">
        {variant !== "destructive" && shown}
      </div>
      <div aria-live="assertive" aria-atomic="true">
        {variant === "destructive" && shown}
      </div>
    </div>
  );
}
