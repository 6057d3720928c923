// /admin's Bookings tab: the counts, every booking, and Reassign / Remove helper / Cancel booking on
// confirmed ones (Reassign and Cancel also on a visit waiting for a new helper).
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { CancelBookingDialog } from "../../components/CancelBookingDialog";
import { StatusBadge } from "../../components/StatusBadge";
import { api } from "../../lib/api";
import { CheckboxOption, TextareaField } from "../../components/Field";
import { formatMoney, formatVisit } from "../../lib/format";
import { TEXT_MAX } from "../../lib/schemas/booking";
import { toast } from "../../lib/toast";
import type { Booking } from "../../lib/types";
import { FilteredTable } from "./FilteredTable";
import { CountCards } from "./ListParts";
import { ReassignDialog } from "./ReassignDialog";
import { RemoveHelperDialog } from "./RemoveHelperDialog";
import { ADMIN_ACTION, BOOKINGS, clientName, type Counts, failed, providerName } from "./common";

const BOOKING_STATUSES = ["scheduled", "confirmed", "replacing", "completed", "cancelled"];

type Waiver = { waive: boolean; reason: string };
const NO_WAIVER: Waiver = { waive: false, reason: "" };

/** Admin cancel (spec): confirmed bookings only, a reason required; a paid one is refunded. Inside
 * 48 hours the late fee the dialog showed (the server's lateFee) is sent back with it, waived or not. */
function useAdminCancel(onDone: () => Promise<void>, onClose: () => void, waiver: Waiver) {
  const cancel = useMutation({
    mutationFn: ({ booking, reason }: { booking: Booking; reason: string }) =>
      api.put(`/api/admin/bookings/${booking.id}/cancel`, {
        reason,
        lateFee: booking.lateFee,
        waiveLateFee: waiver.waive,
        waiveReason: waiver.waive ? waiver.reason.trim() : "",
      }),
    meta: ADMIN_ACTION,
    onSuccess: async () => {
      toast({ title: t`Success`, description: t`Booking cancelled successfully` });
      await onDone();
      onClose();
    },
    onError: (error) => failed(error, t`Failed to cancel booking`),
  });
  // The dialog stays busy until the answer (it awaits this); failures are told above.
  return async (booking: Booking, reason: string) => {
    await cancel.mutateAsync({ booking, reason }).catch(() => undefined);
  };
}

/** The cancellation policy's late fee, said before staff confirm (the amounts are the server's). */
function LateFeeChoice({
  booking,
  waiver,
  onChange,
}: {
  booking: Booking;
  waiver: Waiver;
  onChange: (waiver: Waiver) => void;
}) {
  if (!(Number(booking.lateFee) > 0)) return null;
  const fee = formatMoney(booking.lateFee);
  return (
    <div className="notice" role="note" data-testid="late-fee">
      <p>
        <Trans>
          Less than 48 hours before the visit: the helper is paid a late fee of <strong>{fee}</strong>. Tell the family
          this amount before you confirm.
        </Trans>
      </p>
      <CheckboxOption
        id="waive-late-fee"
        label={t`Waive the late fee`}
        description={t`The client gets everything back and the helper is paid nothing.`}
        checked={waiver.waive}
        onChange={(e) => onChange({ ...waiver, waive: e.currentTarget.checked })}
      />
      {waiver.waive && (
        <TextareaField
          id="waive-reason"
          label={t`Why the fee is waived`}
          required
          value={waiver.reason}
          maxLength={TEXT_MAX}
          onChange={(e) => onChange({ ...waiver, reason: e.currentTarget.value })}
        />
      )}
    </div>
  );
}

/** What comes back to the client's card, with the late fee kept or waived. */
function lateRefundNote(booking: Booking | null, waiver: Waiver): string | undefined {
  if (!booking || !(Number(booking.lateFee) > 0) || waiver.waive) return undefined;
  const refund = formatMoney(booking.lateCancelRefund);
  const fee = formatMoney(booking.lateFee);
  return t`The client will get ${refund} back to their card; ${fee} goes to the helper as the late fee.`;
}

/** Why a booking's row has no Reassign / Cancel booking buttons (only confirmed ones do). */
function noActionText(status: Booking["status"]): string {
  const why: Partial<Record<Booking["status"], string>> = {
    scheduled: t`Waiting for payment`,
    completed: t`Visit done`,
    cancelled: t`Cancellation is final`,
  };
  return why[status] ?? t`No changes`;
}

interface RowActions {
  onReassign: (booking: Booking) => void;
  onRemove: (booking: Booking) => void;
  onCancel: (booking: Booking) => void;
}

function BookingRow({ booking: b, actions }: { booking: Booking; actions: RowActions }) {
  const id = b.id;
  return (
    <tr data-testid="admin-booking">
      <td>#{b.id}</td>
      <td>{clientName(b.client)}</td>
      <td>{providerName(b)}</td>
      <td>{formatVisit(b.scheduledDate, b.scheduledTime, b.recipient?.timeZone)}</td>
      <td>
        <StatusBadge status={b.status} />
      </td>
      <td>
        {b.status === "confirmed" || b.status === "replacing" ? (
          <div className="actions table-actions">
            <button type="button" className="button button-secondary" onClick={() => actions.onReassign(b)}>
              <Trans>
                Reassign<span className="visually-hidden"> booking #{id}</span>
              </Trans>
            </button>
            {b.status === "confirmed" && (
              <button type="button" className="button button-secondary" onClick={() => actions.onRemove(b)}>
                <Trans>
                  Remove helper<span className="visually-hidden"> of booking #{id}</span>
                </Trans>
              </button>
            )}
            <button type="button" className="button button-danger" onClick={() => actions.onCancel(b)}>
              <Trans>
                Cancel booking<span className="visually-hidden"> #{id}</span>
              </Trans>
            </button>
          </div>
        ) : (
          // Only confirmed bookings can be changed here; a bare "None" read as missing data.
          <span className="muted">{noActionText(b.status)}</span>
        )}
      </td>
    </tr>
  );
}

export function BookingsTab({ counts, onChanged }: { counts: Counts["bookings"]; onChanged: () => Promise<void> }) {
  const [reassigning, setReassigning] = useState<Booking | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [removing, setRemoving] = useState<Booking | null>(null);
  const [waiver, setWaiver] = useState<Waiver>(NO_WAIVER);
  // onChanged invalidates every list of bookings (this one and the summary's) and the counts.
  const done = onChanged;
  const cancel = useAdminCancel(done, () => setCancelling(null), waiver);
  const actions: RowActions = {
    onReassign: setReassigning,
    onRemove: setRemoving,
    onCancel: (b) => {
      setWaiver(NO_WAIVER);
      setCancelling(b);
    },
  };
  return (
    <>
      <CountCards
        label={t`Booking counts`}
        cards={[
          { key: "Total Bookings", label: t`Total Bookings`, value: counts.total },
          { key: "Confirmed", label: t`Confirmed`, value: counts.confirmed },
          { key: "Cancelled", label: t`Cancelled`, value: counts.cancelled },
        ]}
      />
      <FilteredTable<Booking>
        url={BOOKINGS}
        title={t`All Bookings`}
        noun={{ id: "booking", many: "bookings" }}
        words={{
          found: (count) => plural(count, { one: "# booking found", other: "# bookings found" }),
          noneFound: t`No bookings found`,
          noneYet: t`No bookings yet`,
        }}
        statuses={BOOKING_STATUSES}
        searchLabel={t`Search bookings`}
        searchPlaceholder={t`Booking ID, client, provider or service...`}
        columns={[t`Booking ID`, t`Client`, t`Provider`, t`Date`, t`Status`, t`Actions`]}
        row={(b) => <BookingRow key={b.id} booking={b} actions={actions} />}
      />
      <ReassignDialog booking={reassigning} onClose={() => setReassigning(null)} onDone={done} />
      <RemoveHelperDialog booking={removing} onClose={() => setRemoving(null)} onDone={done} />
      <CancelBookingDialog
        booking={cancelling}
        reasonLabel={t`Cancellation reason`}
        reasonRequired
        // CancelBookingDialog's choice of sentence (its own words), not words shown as such.
        // eslint-disable-next-line lingui/no-unlocalized-strings
        refundTo="the client"
        refundNote={lateRefundNote(cancelling, waiver)}
        onClose={() => setCancelling(null)}
        onConfirm={cancel}
      >
        {cancelling && <LateFeeChoice booking={cancelling} waiver={waiver} onChange={setWaiver} />}
      </CancelBookingDialog>
    </>
  );
}
