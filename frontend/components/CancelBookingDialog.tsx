// "Cancel Booking" (spec: the warning, a reason, "Cancel Booking" and "Keep Booking"), for the
// client on the dashboard (reason optional, the 48-hour rule) and the admin (reason required).
// The caller sends the cancellation and tells the outcome; the dialog keeps the reason (in
// react-hook-form, lib/schemas/booking.ts) and the busy state. It says what comes back to the
// card: the server's cancelRefund (bookings.services.cancel_refund_amount), never a guess here.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { useSchemaForm } from "../lib/forms";
import { formatMoney, formatVisit } from "../lib/format";
import { adminCancelSchema, clientCancelSchema, TEXT_MAX, type CancelReasonValues } from "../lib/schemas/booking";
import type { Booking } from "../lib/types";
import { Dialog, DialogClose } from "./Dialog";
import { TextareaField } from "./Field";

const NO_REASON: CancelReasonValues = { reason: "" };
/** The one page of the cancellation policy (marketplace.views.cancellation_policy). */
import { CANCELLATION_POLICY } from "./BookingPerson";

export { CANCELLATION_POLICY };

/** What a cancel returns to the card, in words: for the client ("you") or about them (staff). */
export function refundSentence(booking: Pick<Booking, "cancelRefund">, to: "you" | "the client" = "you"): string {
  const amount = Number(booking.cancelRefund);
  if (!(amount > 0)) return t`Nothing was charged for this visit, so there is nothing to refund.`;
  const money = formatMoney(amount);
  return to === "you"
    ? t`You will get ${money} back to your card.`
    : t`The client will get ${money} back to their card.`;
}

export function CancelBookingDialog({
  booking,
  reasonLabel,
  reasonRequired = false,
  blocked,
  children,
  refundTo = "you",
  refundNote,
  onClose,
  onConfirm,
}: {
  /** Whom the refund sentence speaks to: the client cancelling, or staff about the client. */
  refundTo?: "you" | "the client";
  /** Says what comes back instead of the refund sentence (staff's cancel with a late fee). */
  refundNote?: ReactNode;
  /** The booking to cancel; null keeps the dialog closed. */
  booking: Booking | null;
  reasonLabel: string;
  reasonRequired?: boolean;
  /** When set, the booking cannot be cancelled here: this shows instead of the Cancel Booking button. */
  blocked?: ReactNode;
  /** Notes under the reason. */
  children?: ReactNode;
  onClose: () => void;
  /** Sends the cancellation with the trimmed reason; closes the dialog (onClose) when done. */
  onConfirm: (booking: Booking, reason: string) => Promise<void>;
}) {
  const { handleSubmit, values, set, error, submitting } = useSchemaForm<CancelReasonValues>({
    schema: reasonRequired ? adminCancelSchema : clientCancelSchema,
    defaultValues: NO_REASON,
    onChange: "none",
    resetOn: booking?.id,
  });
  const busy = submitting;
  // A required reason: the button waits for one (the schema says the same to a submit).
  const missing = reasonRequired && !values.reason.trim();

  const confirm = handleSubmit(async ({ reason }) => {
    if (!booking || busy) return;
    await onConfirm(booking, reason.trim());
  });

  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t`Cancel Booking`}
      description={t`Are you sure you want to cancel this booking? This action cannot be undone.`}
      testId="cancel-dialog"
      footer={
        <>
          <DialogClose>{t`Keep Booking`}</DialogClose>
          {blocked ?? (
            <button type="button" className="button button-danger" onClick={confirm} disabled={missing || busy}>
              {busy ? t`Cancelling...` : t`Cancel Booking`}
            </button>
          )}
        </>
      }
    >
      {booking && (
        <p className="dialog-subject">
          <strong>{booking.serviceRequest?.title || t`Service Appointment`}</strong>
          <br />
          {formatVisit(booking.scheduledDate, booking.scheduledTime, booking.recipient?.timeZone)}
        </p>
      )}
      {booking && !blocked && (
        <p className="dialog-refund" data-testid="cancel-refund">
          <strong>{refundNote ?? refundSentence(booking, refundTo)}</strong>
        </p>
      )}
      <p>
        <a href={CANCELLATION_POLICY} target="_blank" rel="noopener" data-testid="cancellation-policy-link">
          <Trans>
            Our cancellation policy<span className="visually-hidden"> (opens in a new tab)</span>
          </Trans>
        </a>
      </p>
      <TextareaField
        id="cancel-reason"
        label={reasonLabel}
        required={reasonRequired}
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
      {children}
    </Dialog>
  );
}
