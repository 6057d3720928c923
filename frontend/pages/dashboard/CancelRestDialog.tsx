// "Cancel the rest of the series": this visit and the later ones, with what comes back to the card.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { CANCELLATION_POLICY } from "../../components/CancelBookingDialog";
import { Dialog, DialogClose } from "../../components/Dialog";
import { TextareaField } from "../../components/Field";
import { api, ApiError, isUnauthorizedError } from "../../lib/api";
import { formatMoney, formatVisit } from "../../lib/format";
import { useSchemaForm } from "../../lib/forms";
import { useApiWrite } from "../../lib/query";
import { type CancelReasonValues, clientCancelSchema, TEXT_MAX } from "../../lib/schemas/booking";
import { toast } from "../../lib/toast";
import type { Booking } from "../../lib/types";
import { bookingTitle, CANCEL_WINDOW_HOURS, SESSION } from "./common";

const NO_REASON: CancelReasonValues = { reason: "" };

interface SeriesCancelResult {
  message: string;
  cancelled: number[];
  kept: number[];
}

/** GET /api/bookings/{id}/cancel-rest: what the cancel would take, keep and refund now. */
interface SeriesCancelPreview {
  cancelled: number[];
  kept: number[];
  refund: number;
}

/** The dialog's words for the preview: how many visits go, and what comes back to the card. */
function restRefundSentence(preview: SeriesCancelPreview): string {
  const visits = plural(preview.cancelled.length, {
    one: "# visit will be cancelled.",
    other: "# visits will be cancelled.",
  });
  const refund = formatMoney(preview.refund);
  const money =
    preview.refund > 0
      ? t`You will get ${refund} back to your card.`
      : t`Nothing was charged for them, so there is nothing to refund.`;
  return `${visits} ${money}`;
}

/** "Cancel the rest of the series": this visit and every later one, but those less than
 * 48 hours away, which the answer names. */
export function CancelRestDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { handleSubmit, values, set, error } = useSchemaForm<CancelReasonValues>({
    schema: clientCancelSchema,
    defaultValues: NO_REASON,
    onChange: "none",
    resetOn: booking?.id,
  });
  // Busy from the click until the dialog closes (or the cancellation failed).
  const [busy, setBusy] = useState(false);
  const { post } = useApiWrite([], SESSION);
  useEffect(() => setBusy(false), [booking?.id]);
  const previewPath = booking ? `/api/bookings/${booking.id}/cancel-rest` : "";
  const preview = useQuery({
    queryKey: [previewPath],
    queryFn: () => api.get<SeriesCancelPreview>(previewPath),
    enabled: booking !== null,
    gcTime: 0,
    staleTime: 0,
    retry: false,
    meta: SESSION,
  });
  const confirm = handleSubmit(async ({ reason }) => {
    if (!booking || busy) return;
    setBusy(true);
    try {
      const result = await post<SeriesCancelResult>(`/api/bookings/${booking.id}/cancel-rest`, {
        reason: reason.trim(),
      });
      toast({ title: t`Visits Cancelled`, description: result.message });
      onClose();
      onDone();
    } catch (error) {
      setBusy(false);
      if (isUnauthorizedError(error)) return;
      const message = error instanceof ApiError ? error.serverMessage : "";
      toast({
        title: t`Cancellation Failed`,
        description: message || t`Failed to cancel the visits`,
        variant: "destructive",
      });
      onDone();
    }
  });
  const visitIndex = booking?.series?.index ?? 0;
  const visitCount = booking?.series?.count ?? 0;
  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t`Cancel the rest of the series`}
      description={t`This visit and every later visit of the series will be cancelled. This cannot be undone.`}
      testId="cancel-rest-dialog"
      footer={
        <>
          <DialogClose>
            <Trans>Keep the visits</Trans>
          </DialogClose>
          <button type="button" className="button button-danger" onClick={confirm} disabled={busy}>
            {busy ? t`Cancelling...` : t`Cancel these visits`}
          </button>
        </>
      }
    >
      {booking?.series && (
        <p className="dialog-subject">
          <strong>{bookingTitle(booking)}</strong>
          <br />
          <Trans>
            From visit {visitIndex} of {visitCount}:
          </Trans>{" "}
          {formatVisit(booking.scheduledDate, booking.scheduledTime, booking.recipient?.timeZone)}
        </p>
      )}
      <TextareaField
        id="cancel-rest-reason"
        label={t`Reason for cancellation (optional)`}
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
      {/* What comes back to the card: the server's count of it (the cancel's own rules). */}
      <p className="dialog-refund" data-testid="cancel-refund" aria-live="polite">
        <strong>
          {preview.data ? restRefundSentence(preview.data) : preview.isError ? "" : t`Working out the refund...`}
        </strong>
      </p>
      <p className="notice" role="note">
        <Trans>
          Visits less than {CANCEL_WINDOW_HOURS} hours away stay booked. Paid visits that are cancelled are refunded in
          full to your card.
        </Trans>
      </p>
      <p>
        <a href={CANCELLATION_POLICY} target="_blank" rel="noopener" data-testid="cancellation-policy-link">
          <Trans>
            Our cancellation policy<span className="visually-hidden"> (opens in a new tab)</span>
          </Trans>
        </a>
      </p>
    </Dialog>
  );
}
