// "Remove helper" (PUT /api/admin/bookings/{id}/remove-helper): staff take the helper off a visit
// still ahead, for a reason; it is offered to other helpers near the family at once (a replacement,
// bookings.services.replacement) and the family sees "Finding a replacement".
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { Dialog, DialogClose } from "../../components/Dialog";
import { TextareaField } from "../../components/Field";
import { api } from "../../lib/api";
import { useSchemaForm } from "../../lib/forms";
import { formatVisit } from "../../lib/format";
import { adminCancelSchema, TEXT_MAX, type CancelReasonValues } from "../../lib/schemas/booking";
import { toast } from "../../lib/toast";
import type { Booking } from "../../lib/types";
import { ADMIN_ACTION, failed, providerName } from "./common";

const NO_REASON: CancelReasonValues = { reason: "" };

export function RemoveHelperDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const { handleSubmit, values, set, error } = useSchemaForm<CancelReasonValues>({
    schema: adminCancelSchema,
    defaultValues: NO_REASON,
    onChange: "none",
    resetOn: booking?.id,
  });
  const remove = useMutation({
    mutationFn: ({ b, reason }: { b: Booking; reason: string }) =>
      api.put(`/api/admin/bookings/${b.id}/remove-helper`, { reason }),
    meta: ADMIN_ACTION,
    onSuccess: async () => {
      toast({
        title: t`Success`,
        description: t`The helper was removed. The visit is being offered to other helpers.`,
      });
      await onDone();
      onClose();
    },
    onError: (err) => failed(err, t`Failed to remove the helper`),
  });
  const confirm = handleSubmit(async ({ reason }) => {
    if (!booking || remove.isPending) return;
    await remove.mutateAsync({ b: booking, reason: reason.trim() }).catch(() => undefined);
  });
  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t`Remove helper`}
      description={t`The helper is taken off this visit, and it is offered at once to the best helpers near the family who are free then. The family is told.`}
      testId="remove-helper-dialog"
      footer={
        <>
          <DialogClose>
            <Trans>Keep the helper</Trans>
          </DialogClose>
          <button
            type="button"
            className="button button-danger"
            onClick={confirm}
            disabled={!values.reason.trim() || remove.isPending}
          >
            {remove.isPending ? t`Removing...` : t`Remove helper`}
          </button>
        </>
      }
    >
      {booking && (
        <p className="dialog-subject">
          <strong>
            #{booking.id}: {providerName(booking)}
          </strong>
          <br />
          {formatVisit(booking.scheduledDate, booking.scheduledTime, booking.recipient?.timeZone)}
        </p>
      )}
      <TextareaField
        id="remove-helper-reason"
        label={t`Reason`}
        required
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
    </Dialog>
  );
}
