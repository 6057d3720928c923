// A status shown as a word in a coloured pill (the word carries the meaning, not the colour),
// optionally with a plain line under it saying what the status means for the person looking
// ("Waiting for your payment"): the status words alone mislead.
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
        if (member) return "The payment did not go through yet. An organizer of the circle can try again.";
        // The helper is not told why (a declined card is the family's own business).
        return mine ? "Your payment did not go through. Please try again." : "Waiting for payment";
      }
      if (payment === "paid")
        return mine ? "Payment received, confirming your visit" : "Payment received, confirming the visit";
      if (member) return "Waiting for an organizer of the circle to pay";
      return mine ? "Waiting for your payment" : "Waiting for the client's payment";
    case "confirmed":
      if (perspective !== "provider") return "Paid and confirmed";
      // The helper's card says by when she must arrive, before the family is ever alerted.
      if (booking.checkInBy && !booking.checkedInAt)
        return `Paid and confirmed: please check in by ${formatClock(booking.checkInBy, booking.recipient?.timeZone)} at the latest`;
      return "Paid and confirmed: please visit as planned";
    case "replacing":
      return perspective === "provider" || perspective === "admin"
        ? "Its helper cannot come: Kindly is offering it to other helpers"
        : "Your helper cannot come: Kindly is finding a replacement";
    case "completed":
      return "The visit is done";
    case "cancelled":
      if (payment === "refunded")
        return mine ? "Cancelled. Your payment was refunded." : "Cancelled. The payment was refunded.";
      return "Cancelled. This visit will not take place.";
    default:
      return "";
  }
}

/** One plain sentence per service request status, for each perspective. */
export function requestStatusNote(status: string, perspective: Perspective): string {
  switch (status) {
    case "open":
      return perspective === "client" ? "Waiting for a helper to accept" : "Open: a verified helper may accept it";
    case "booked":
      return perspective === "client" ? "A helper accepted: see your booking" : "Booked with a helper";
    case "completed":
      return "The visit is done";
    case "cancelled":
      return "Cancelled. No visit will take place.";
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
