// Toasts (spec "Toasts"): one at a time, a new one replaces the old, 5000 ms, default and
// destructive looks, swipe right to dismiss (threshold 50), F8 focuses the region.
// Any island calls toast(); the single <Toaster/> (islands/toaster.tsx, on every page) shows it.
import * as RadixToast from "@radix-ui/react-toast";
import { useEffect, useState } from "react";

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
  const el = document.getElementById("queued-toasts");
  if (!el?.textContent) return [];
  try {
    const parsed = JSON.parse(el.textContent) as unknown;
    return Array.isArray(parsed) ? (parsed as ToastInput[]) : [];
  } catch {
    return [];
  }
}

export function Toaster() {
  const [current, setCurrent] = useState<ShownToast | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let counter = 0;
    const show = (input: ToastInput) => {
      counter += 1;
      setCurrent({ ...input, key: counter });
      setOpen(true);
    };
    const onToast = (event: Event) => show((event as CustomEvent<ToastInput>).detail);
    window.addEventListener(TOAST_EVENT, onToast);
    // Messages the server queued with a redirect: the newest one replaces any older one.
    const queued = queuedFromServer();
    const last = queued[queued.length - 1];
    if (last) show(last);
    return () => window.removeEventListener(TOAST_EVENT, onToast);
  }, []);

  const variant = current?.variant ?? "default";
  return (
    <RadixToast.Provider swipeDirection="right" swipeThreshold={50} duration={DEFAULT_DURATION}>
      {current && (
        <RadixToast.Root
          key={current.key}
          className={`toast toast-${variant}`}
          type={variant === "destructive" ? "foreground" : "background"}
          open={open}
          onOpenChange={setOpen}
          duration={current.duration ?? DEFAULT_DURATION}
          data-testid="toast"
          data-variant={variant}
        >
          <div className="toast-text">
            <RadixToast.Title className="toast-title">{current.title}</RadixToast.Title>
            {current.description && (
              <RadixToast.Description className="toast-description">{current.description}</RadixToast.Description>
            )}
          </div>
          <RadixToast.Close className="toast-close" aria-label="Dismiss notification">
            <span aria-hidden="true">×</span>
          </RadixToast.Close>
        </RadixToast.Root>
      )}
      <RadixToast.Viewport className="toast-viewport" hotkey={["F8"]} />
    </RadixToast.Provider>
  );
}
