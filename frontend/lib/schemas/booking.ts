// The booking dialogs' form schemas: the cancellation reason (the client's optional one on the
// dashboard, the admin's required one), the series cancellation, the review, and the provider's
// visit report. The server's limits and words: bookings/api/serializers/ (BookingCancelSerializer,
// AdminBookingCancelSerializer, ReviewCreateSerializer, VisitReportInputSerializer) and
// bookings/services/visit.py (visit_report_problems); a field's limit answers in core.api's words
// ("Reason can be at most 2,000 characters."), measured after the server trims the text.
import * as z from "zod/mini";
import { RULES } from "../rules.generated";
import { text } from "./rules";

/** The longest reason, comment or report text the server keeps. */
export const TEXT_MAX = RULES.booking.TEXT_MAX;

/** A field's most and its words, as the server gives them (core.api.input_limits). */
interface MaxLength {
  readonly maxLength: number;
  readonly maxLengthMessage: string;
}

/** "<Label> can be at most 2,000 characters." when the trimmed text is longer. */
export const atMost = (limit: MaxLength) => (value: string) =>
  value.trim().length > limit.maxLength ? limit.maxLengthMessage : "";

const B = RULES.booking;

/** A number (or nothing chosen yet, for a choice) and its rule. */
function chosen<S extends z.ZodMiniType<number | null, number | null>>(
  schema: S,
  problem: (value: number | null) => string,
) {
  return schema.check(
    z.superRefine((value: number | null, ctx) => {
      const message = problem(value);
      if (message) ctx.addIssue({ code: "custom", message, input: value });
    }),
  );
}

// ---- Cancel a booking -----------------------------------------------------------------------

export interface CancelReasonValues {
  reason: string;
}

export const { CANCEL_REASON_REQUIRED } = RULES.booking;

/** The client's cancellation (one visit, or the rest of a series): the reason is optional. */
export const clientCancelSchema = z.object({ reason: text(atMost(B.CLIENT_CANCEL.reason)) });

/** The admin's cancellation: a reason is required. */
export const adminCancelSchema = z.object({
  reason: text((v) => (v.trim() ? atMost(B.ADMIN_CANCEL.reason)(v) : CANCEL_REASON_REQUIRED)),
});

// ---- Review ---------------------------------------------------------------------------------

export interface ReviewValues {
  /** 0 until a star is chosen. */
  rating: number;
  comment: string;
}

export const { RATING_MISSING, RATING_RANGE } = RULES.booking;

export const reviewSchema = z.object({
  rating: chosen(z.number(), (n) => {
    if (n === null || n < B.REVIEW.rating.min) return RATING_MISSING;
    return n > B.REVIEW.rating.max || !Number.isInteger(n) ? RATING_RANGE : "";
  }),
  comment: text(atMost(B.REVIEW.comment)),
});

/** What the review sends: the comment trimmed. */
export const reviewPayload = (values: ReviewValues) => ({ rating: values.rating, comment: values.comment.trim() });

// ---- Visit report ---------------------------------------------------------------------------

export interface VisitReportValues {
  tasksDone: string[];
  notes: string;
  /** null until chosen. */
  wellbeing: number | null;
  forFamily: string;
  followUpSuggested: boolean;
}

export const { WELLBEING_MISSING, WELLBEING_RANGE, REPORT_EMPTY } = RULES.booking;

export const visitReportSchema = z
  .object({
    tasksDone: z.array(z.string()),
    notes: text(atMost(B.VISIT_REPORT.notes)),
    wellbeing: chosen(z.nullable(z.number()), (n) => {
      if (n === null) return WELLBEING_MISSING;
      const { min, max } = B.VISIT_REPORT.wellbeing;
      return Number.isInteger(n) && n >= min && n <= max ? "" : WELLBEING_RANGE;
    }),
    forFamily: text(atMost(B.VISIT_REPORT.forFamily)),
    followUpSuggested: z.boolean(),
  })
  .check(
    // The server's last rule, once the fields are fine: a report says something of the visit.
    z.superRefine((values, ctx) => {
      if (values.tasksDone.length === 0 && !values.notes.trim()) {
        ctx.addIssue({ code: "custom", message: REPORT_EMPTY, path: ["notes"], input: values.notes });
      }
    }),
  );

/** The report as the API takes it: its five fields (a saved report read back has more), the
 * texts trimmed. */
export function visitReportPayload(values: VisitReportValues) {
  return {
    tasksDone: values.tasksDone,
    notes: values.notes.trim(),
    wellbeing: values.wellbeing,
    forFamily: values.forFamily.trim(),
    followUpSuggested: values.followUpSuggested,
  };
}
