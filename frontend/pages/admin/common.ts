// What the admin page's parts share: the count cards' shape, the lists' endpoints and page sizes,
// how an admin action says it failed, and the names shown for a booking's people.
import { t } from "@lingui/core/macro";
import { isUnauthorizedError, redirectAfter } from "../../lib/api";
import { personName } from "../../lib/format";
import type { SessionMeta } from "../../lib/query";
import { toast } from "../../lib/toast";
import type { AdminSummary, Booking, PersonSummary } from "../../lib/types";

/** The count cards, counted by the server over every record (GET /api/admin/summary). */
export type Counts = AdminSummary;

export type Verdict = "verified" | "rejected";

export const PROVIDERS_PER_PAGE = 10;
export const ROWS_PER_PAGE = 20;
/** The reassign dialog lists this many verified providers; a search narrows them. */
export const REASSIGN_CHOICES = 50;

export const SUMMARY = "/api/admin/summary";
export const PROVIDERS = "/api/admin/providers";
export const BOOKINGS = "/api/admin/bookings";

/** Spec section 8: a 401 on an admin action says "Session expired" and goes to / (the page's
 * reads go the way of every page, lib/query). The admin's mutations carry this meta. */
export const ADMIN_ACTION: SessionMeta = { ownsUnauthorized: true };

export function failed(error: unknown, text: string): void {
  if (isUnauthorizedError(error)) {
    toast({ title: t`Error`, description: t`Session expired. Please login again.`, variant: "destructive" });
    redirectAfter("/", 500);
    return;
  }
  toast({ title: t`Error`, description: text, variant: "destructive" });
}

export function clientName(person: PersonSummary | null | undefined): string {
  return personName(person) || t`Client not found`;
}

export function providerName(booking: Booking): string {
  return personName(booking.provider?.user) || t`Provider not found`;
}
