// The client's "Cancel Booking" on the dashboard (the 48-hour rule; a paid booking is refunded).
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { SUPPORT_LINK } from "../../components/BookingPerson";
import { CancelBookingDialog } from "../../components/CancelBookingDialog";
import { ApiError, isUnauthorizedError } from "../../lib/api";
import { useApiWrite } from "../../lib/query";
import { toast } from "../../lib/toast";
import type { Booking } from "../../lib/types";
import { CANCEL_BLOCKED, CANCEL_WINDOW_HOURS, SESSION } from "./common";

/** Client cancel (spec): at least 48 hours before the visit, a paid booking refunded. A failure
 * refreshes the dashboard too (the booking may have changed meanwhile). */
async function clientCancel(
  post: (path: string, body: unknown) => Promise<unknown>,
  booking: Booking,
  reason: string,
  onClose: () => void,
  onDone: () => void,
) {
  try {
    await post(`/api/bookings/${booking.id}/cancel`, { reason });
    toast({ title: t`Booking Cancelled`, description: t`Your booking has been successfully cancelled.` });
    onClose();
    onDone();
  } catch (error) {
    if (isUnauthorizedError(error)) return; // lib/query says so and signs in again
    const message = error instanceof ApiError ? error.serverMessage : "";
    toast({
      title: t`Cancellation Failed`,
      description: message || t`Failed to cancel booking`,
      variant: "destructive",
    });
    onDone();
  }
}

export function CancelDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { post } = useApiWrite([], SESSION);
  return (
    <CancelBookingDialog
      booking={booking}
      reasonLabel={t`Reason for cancellation (optional)`}
      onClose={onClose}
      onConfirm={(b, reason) => clientCancel(post, b, reason, onClose, onDone)}
      blocked={
        booking?.canCancel ? undefined : (
          <>
            <p className="notice notice-inline">{CANCEL_BLOCKED}</p>
            <a className="button button-secondary" href={SUPPORT_LINK}>
              <Trans>Contact support</Trans>
            </a>
          </>
        )
      }
    >
      <p className="notice" role="note">
        <Trans>Bookings can be cancelled up to {CANCEL_WINDOW_HOURS} hours before the scheduled time.</Trans>
      </p>
    </CancelBookingDialog>
  );
}
