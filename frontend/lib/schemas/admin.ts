// The admin dashboard's small forms: the note on a provider's approval or rejection, the booking
// reassignment, and each list's search and status filter. The server's limits and words:
// providers/api/serializers.py ProviderStatusSerializer, bookings/api/serializers/actions.py
// BookingReassignSerializer, adminpanel/api/serializers.py Admin*QuerySerializer.
import * as z from "zod/mini";
import { atMost } from "./booking";
import { fill } from "../limits";
import { RULES } from "../rules.generated";
import { text } from "./rules";

// ---- Approve / reject a provider ------------------------------------------------------------

export interface VerdictValues {
  reason: string;
}

export const verdictSchema = z.object({ reason: text(atMost(RULES.admin.VERDICT_REASON)) });

// ---- Reassign a booking ---------------------------------------------------------------------

export interface ReassignValues {
  /** The chosen provider's id as the select holds it ("" until chosen). */
  providerId: string;
  reason: string;
  /** The search of the provider choices (shown once there are more than one answer holds). */
  search: string;
}

export const { PROVIDER_MISSING, PROVIDER_NOT_FOUND } = RULES.booking;

export const reassignSchema = z.object({
  providerId: text((v) => {
    if (!v) return PROVIDER_MISSING;
    return /^[1-9][0-9]*$/.test(v) ? "" : PROVIDER_NOT_FOUND;
  }),
  reason: text(atMost(RULES.admin.REASSIGN_REASON)),
  search: text(),
});

/** What the reassignment sends (the provider's id as a number, spec section 5). */
export const reassignPayload = (values: ReassignValues) => ({
  newProviderId: Number(values.providerId),
  reason: values.reason,
});

// ---- A list's filters -----------------------------------------------------------------------

export interface ListFilterValues {
  search: string;
  /** "" for every status. */
  status: string;
}

export const SEARCH_MAX = RULES.admin.SEARCH_MAX;

/** A list's search (sent trimmed) and its status filter, one of `statuses` or "" for all. */
export function listFilterSchema(statuses: readonly string[]) {
  return z.object({
    search: text(atMost(RULES.admin.SEARCH)),
    // DRF ChoiceField's own words (the select offers only these, so a person never sees it).
    status: text((v) => (v === "" || statuses.includes(v) ? "" : fill(RULES.plain.INVALID_CHOICE, { input: v }))),
  });
}

// ---- Decide a disputed late fee ---------------------------------------------------------------

export interface LateFeeDecisionValues {
  reason: string;
}

const DECISION_REASON = RULES.admin.LATE_FEE_DECISION_REASON;

/** Staff's reason is required: the family and the helper are told it (payments LateFeeDecisionSerializer). */
export const lateFeeDecisionSchema = z.object({
  reason: text((v) => (v.trim() ? atMost(DECISION_REASON)(v) : DECISION_REASON.requiredMessage)),
});
