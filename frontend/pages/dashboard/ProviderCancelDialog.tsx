// The helper's "I can't make this visit" (bookings.services.booking_cancel_by_provider): a reason is
// required; the visit is offered to other helpers near the family at once and the family is told.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Dialog, DialogClose } from "../../components/Dialog";
import { TextareaField } from "../../components/Field";
import { ApiError, isUnauthorizedError } from "../../lib/api";
import { useSchemaForm } from "../../lib/forms";
import { formatVisit } from "../../lib/format";
import { useApiWrite } from "../../lib/query";
import { adminCancelSchema, TEXT_MAX, type CancelReasonValues } from "../../lib/schemas/booking";
import { toast } from "../../lib/toast";
import type { Booking } from "../../lib/types";
import { bookingTitle, SESSION } from "./common";

const NO_REASON: CancelReasonValues = { reason: "" };

export function ProviderCancelDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { post } = useApiWrite([], SESSION);
  const { handleSubmit, values, set, error, submitting } = useSchemaForm<CancelReasonValues>({
    schema: adminCancelSchema,
    defaultValues: NO_REASON,
    onChange: "none",
    resetOn: booking?.id,
  });
  const missing = !values.reason.trim();

  const confirm = handleSubmit(async ({ reason }) => {
    if (!booking || submitting) return;
    try {
      await post(`/api/bookings/${booking.id}/provider-cancel`, { reason: reason.trim() });
      toast({
        title: t`Visit cancelled`,
        description: t`Thank you for telling us. Kindly is finding another helper for the family now.`,
      });
      onClose();
    } catch (err) {
      if (isUnauthorizedError(err)) return;
      const message = err instanceof ApiError ? err.serverMessage : "";
      toast({
        title: t`Could not cancel the visit`,
        description: message || t`Please try again.`,
        variant: "destructive",
      });
    }
    onDone();
  });

  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t`Cancel this visit`}
      description={t`Are you sure you cannot make this visit? Kindly will offer it to other helpers near the family right away, and the family will be told.`}
      testId="provider-cancel-dialog"
      footer={
        <>
          <DialogClose>
            <Trans>Keep the visit</Trans>
          </DialogClose>
          <button type="button" className="button button-danger" onClick={confirm} disabled={missing || submitting}>
            {submitting ? t`Cancelling...` : t`Cancel the visit`}
          </button>
        </>
      }
    >
      {booking && (
        <p className="dialog-subject">
          <strong>{bookingTitle(booking)}</strong>
          <br />
          {formatVisit(booking.scheduledDate, booking.scheduledTime, booking.recipient?.timeZone)}
        </p>
      )}
      <TextareaField
        id="provider-cancel-reason"
        label={t`Why can you not make it? (the family and Kindly read this)`}
        required
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
    </Dialog>
  );
}
