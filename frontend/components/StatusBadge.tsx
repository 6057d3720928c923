// A status shown as a word in a coloured pill (the word carries the meaning, not the colour),
// optionally with a plain line under it saying what the status means for the person looking
// ("Waiting for your payment"): the status words alone mislead.
import { t } from "@lingui/core/macro";
import { formatClock, statusLabel, type AnyStatus } from "../lib/format";
import "../styles/people.css";

const TONES: Record<string, string> = {
  open: "info",
  scheduled: "info",
  pending: "warning",
  booked: "success",
  confirmed: "success",
  replacing: "warning",
  verified: "success",
  paid: "success",
  completed: "neutral",
  cancelled: "danger",
  deleted: "neutral",
  rejected: "danger",
  failed: "danger",
  refunded: "neutral",
  low: "neutral",
  normal: "info",
  high: "warning",
  urgent: "danger",
  upcoming: "info",
  in_progress: "success",
  late: "warning",
  missed: "danger",
  done: "neutral",
};

/** Whose page it is: the client who booked, the provider who visits, or staff. */
export type Perspective = "client" | "provider" | "admin";

/** Whose note: a "member" of the recipient's care circle sees the visit, an organizer pays. */
export type NotePerspective = Perspective | "member";

/** One plain sentence per booking status (and payment state), for each perspective. */
export function bookingStatusNote(
  booking: {
    status: string;
    paymentStatus?: string;
    checkInBy?: string;
    checkedInAt?: string | null;
    recipient?: { timeZone?: string } | null;
  },
  perspective: NotePerspective,
): string {
  const mine = perspective === "client";
  const member = perspective === "member";
  const payment = booking.paymentStatus;
  switch (booking.status) {
    case "scheduled":
      if (payment === "failed") {
        if (member) return t`The payment did not go through yet. An organizer of the circle can try again.`;
        // The helper is not told why (a declined card is the family's own business).
        return mine ? t`Your payment did not go through. Please try again.` : t`Waiting for payment`;
      }
      if (payment === "paid")
        return mine ? t`Payment received, confirming your visit` : t`Payment received, confirming the visit`;
      if (member) return t`Waiting for an organizer of the circle to pay`;
      return mine ? t`Waiting for your payment` : t`Waiting for the client's payment`;
    case "confirmed":
      if (perspective !== "provider") return t`Paid and confirmed`;
      // The helper's card says by when she must arrive, before the family is ever alerted.
      if (booking.checkInBy && !booking.checkedInAt) {
        const by = formatClock(booking.checkInBy, booking.recipient?.timeZone);
        return t`Paid and confirmed: please check in by ${by} at the latest`;
      }
      return t`Paid and confirmed: please visit as planned`;
    case "replacing":
      return perspective === "provider" || perspective === "admin"
        ? t`Its helper cannot come: Kindly is offering it to other helpers`
        : t`Your helper cannot come: Kindly is finding a replacement`;
    case "completed":
      return t`The visit is done`;
    case "cancelled":
      if (payment === "refunded")
        return mine ? t`Cancelled. Your payment was refunded.` : t`Cancelled. The payment was refunded.`;
      return t`Cancelled. This visit will not take place.`;
    default:
      return "";
  }
}

/** One plain sentence per service request status, for each perspective. */
export function requestStatusNote(status: string, perspective: Perspective): string {
  switch (status) {
    case "open":
      return perspective === "client" ? t`Waiting for a helper to accept` : t`Open: a verified helper may accept it`;
    case "booked":
      return perspective === "client" ? t`A helper accepted: see your booking` : t`Booked with a helper`;
    case "completed":
      return t`The visit is done`;
    case "cancelled":
      return t`Cancelled. No visit will take place.`;
    default:
      return "";
  }
}

export function StatusBadge({
  status,
  label,
  className,
  note,
}: {
  status: AnyStatus;
  label?: string;
  className?: string;
  /** A plain line shown under the word (bookingStatusNote / requestStatusNote). */
  note?: string;
}) {
  const tone = TONES[String(status)] ?? "neutral";
  const badge = (
    <span
      className={`badge badge-${tone}${className ? ` ${className}` : ""}`}
      data-status={status}
      data-testid="status-badge"
    >
      {label ?? statusLabel(status)}
    </span>
  );
  if (!note) return badge;
  return (
    <span className="status-with-note">
      {badge}
      <span className="status-note" data-testid="status-note">
        {note}
      </span>
    </span>
  );
}
