// "Leave a Review" once the helper's visit report is in: stars and a comment.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { Dialog, DialogClose } from "../../components/Dialog";
import { FieldSet, RadioOption, TextareaField } from "../../components/Field";
import { ReportDetails } from "../../components/VisitControls";
import { ApiError, errorMessage, isUnauthorizedError } from "../../lib/api";
import { useSchemaForm } from "../../lib/forms";
import { useApiWrite } from "../../lib/query";
import { reviewPayload, reviewSchema, type ReviewValues, TEXT_MAX } from "../../lib/schemas/booking";
import { toast } from "../../lib/toast";
import type { Booking } from "../../lib/types";
import { bookingTitle, SESSION } from "./common";

const NO_REVIEW: ReviewValues = { rating: 0, comment: "" };

/** The stars' words, read when shown (in the page's language). */
function ratingLabel(n: number): string {
  return [t`Poor`, t`Fair`, t`Good`, t`Very good`, t`Excellent`][n - 1] ?? "";
}

function howWas(booking: Booking): string {
  const title = bookingTitle(booking);
  return t`How was your visit for "${title}"?`;
}

export function ReviewDialog({
  booking,
  onClose,
  onReviewed,
}: {
  booking: Booking | null;
  onClose: () => void;
  onReviewed: (id: number) => void;
}) {
  const { form, values, set, error } = useSchemaForm<ReviewValues>({
    schema: reviewSchema,
    defaultValues: NO_REVIEW,
    onChange: "none",
    resetOn: booking?.id,
  });
  const { rating } = values;
  // Busy from the submit until the dialog closes (or the review failed).
  const [busy, setBusy] = useState(false);
  const { post } = useApiWrite([], SESSION);
  useEffect(() => setBusy(false), [booking?.id]);

  const submit = form.handleSubmit(
    async (checked) => {
      if (!booking) return;
      setBusy(true);
      try {
        await post(`/api/bookings/${booking.id}/review`, reviewPayload(checked));
        toast({ title: t`Review Submitted`, description: t`Thank you for your feedback!` });
        onReviewed(booking.id);
        onClose();
      } catch (err) {
        setBusy(false);
        if (isUnauthorizedError(err)) return;
        if (err instanceof ApiError && err.status === 409) onReviewed(booking.id);
        for (const name of ["rating", "comment"] as const) {
          const fieldMsg = err instanceof ApiError ? err.fieldErrors[name]?.[0] : undefined;
          if (fieldMsg) form.setError(name, { type: "server", message: fieldMsg });
        }
        toast({ title: t`Error`, description: errorMessage(err), variant: "destructive" });
      }
    },
    (invalid) => {
      // The stars first (5 leads the group), else the comment.
      document.getElementById(invalid.rating ? "review-rating-5" : "review-comment")?.focus();
    },
  );

  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t`Leave a Review`}
      description={booking ? howWas(booking) : undefined}
      testId="review-dialog"
    >
      {booking?.hasReport && (
        <details className="review-report" open>
          <summary>
            <Trans>The helper's visit report</Trans>
          </summary>
          <ReportDetails booking={booking} />
        </details>
      )}
      <form onSubmit={submit} noValidate>
        <FieldSet id="review-rating" legend={t`Rating`} required error={error("rating")}>
          <div className="rating-choices">
            {[5, 4, 3, 2, 1].map((n) => (
              <RadioOption
                key={n}
                id={`review-rating-${n}`}
                name="rating"
                value={String(n)}
                checked={rating === n}
                onChange={() => {
                  set("rating", n);
                  form.clearErrors("rating");
                }}
                label={plural(n, { one: "# star", other: "# stars" })}
                description={ratingLabel(n)}
              />
            ))}
          </div>
        </FieldSet>
        <TextareaField
          id="review-comment"
          label={t`Comment (optional)`}
          value={values.comment}
          error={error("comment")}
          onChange={(e) => set("comment", e.currentTarget.value)}
          maxLength={TEXT_MAX}
        />
        <div className="dialog-footer">
          <DialogClose>
            <Trans>Cancel</Trans>
          </DialogClose>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? t`Submitting...` : t`Submit Review`}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
