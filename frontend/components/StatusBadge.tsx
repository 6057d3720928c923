// A status shown as a word in a coloured pill (the word carries the meaning, not the colour).
import { statusLabel, type AnyStatus } from "../lib/format";

const TONES: Record<string, string> = {
  open: "info",
  scheduled: "info",
  pending: "warning",
  booked: "success",
  confirmed: "success",
  verified: "success",
  paid: "success",
  completed: "neutral",
  cancelled: "danger",
  rejected: "danger",
  failed: "danger",
  refunded: "neutral",
  low: "neutral",
  normal: "info",
  high: "warning",
  urgent: "danger",
};

export function StatusBadge({ status, label, className }: { status: AnyStatus; label?: string; className?: string }) {
  const tone = TONES[String(status)] ?? "neutral";
  return (
    <span className={`badge badge-${tone}${className ? ` ${className}` : ""}`} data-status={status} data-testid="status-badge">
      {label ?? statusLabel(status)}
    </span>
  );
}
