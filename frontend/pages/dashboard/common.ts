// What the dashboard's parts share: the sides it shows, its calls' lost-session handling, the
// words of the 48-hour rule, and how a booking and a person are named.
import { t } from "@lingui/core/macro";
import type { SessionMeta } from "../../lib/query";
import { RULES } from "../../lib/rules.generated";
import type { Booking, RecipientSummary } from "../../lib/types";

/** A person cared for, as a booking or a request names them. */
export type Recipient = Pick<RecipientSummary, "id" | "firstName" | "lastName">;

export function fullName(r: Recipient | null | undefined): string {
  return r ? `${r.firstName} ${r.lastName}`.trim() : "";
}

export type ProviderStatus = "none" | "pending" | "verified" | "rejected" | "inactive";
export type View = "provider" | "client";

export const LIST_LIMIT = 3;
export const UNREAD_POLL_MS = 10_000;
export const UNREAD_COUNT = "/api/messages/unread-count";
/** A lost session signs in again through /api/login (spec section 8); the page's calls carry it. */
export const SESSION: SessionMeta = { loginTarget: "/api/login" };

export function bookingTitle(b: Booking): string {
  return b.serviceRequest?.title || t`Service Appointment`;
}

/** The cancellation window's words (bookings.services), as the server says them. */
export const { CANCEL_WINDOW_MESSAGE: CANCEL_BLOCKED, WINDOW_HOURS: CANCEL_WINDOW_HOURS } = RULES.cancellation;
