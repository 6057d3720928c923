// /admin's Bookings tab: the counts, every booking, and Reassign / Remove helper / Cancel booking on
// confirmed ones (Reassign and Cancel also on a visit waiting for a new helper).
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
      toast({ title: "Success", description: "Booking cancelled successfully" });
      await onDone();
      onClose();
    },
    onError: (error) => failed(error, "Failed to cancel booking"),
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
  return (
    <div className="notice" role="note" data-testid="late-fee">
      <p>
        Less than 48 hours before the visit: the helper is paid a late fee of{" "}
        <strong>{formatMoney(booking.lateFee)}</strong>. Tell the family this amount before you confirm.
      </p>
      <CheckboxOption
        id="waive-late-fee"
        label="Waive the late fee"
        description="The client gets everything back and the helper is paid nothing."
        checked={waiver.waive}
        onChange={(e) => onChange({ ...waiver, waive: e.currentTarget.checked })}
      />
      {waiver.waive && (
        <TextareaField
          id="waive-reason"
          label="Why the fee is waived"
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
  return `The client will get ${formatMoney(booking.lateCancelRefund)} back to their card; ${formatMoney(
    booking.lateFee,
  )} goes to the helper as the late fee.`;
}

/** Why a booking's row has no Reassign / Cancel booking buttons (only confirmed ones do). */
const NO_ACTION: Partial<Record<Booking["status"], string>> = {
  scheduled: "Waiting for payment",
  completed: "Visit done",
  cancelled: "Cancellation is final",
};

export function BookingsTab({ counts, onChanged }: { counts: Counts["bookings"]; onChanged: () => Promise<void> }) {
  const [reassigning, setReassigning] = useState<Booking | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [removing, setRemoving] = useState<Booking | null>(null);
  const [waiver, setWaiver] = useState<Waiver>(NO_WAIVER);
  // onChanged invalidates every list of bookings (this one and the summary's) and the counts.
  const done = onChanged;
  const cancel = useAdminCancel(done, () => setCancelling(null), waiver);
  return (
    <>
      <CountCards
        label="Booking counts"
        cards={[
          { label: "Total Bookings", value: counts.total },
          { label: "Confirmed", value: counts.confirmed },
          { label: "Cancelled", value: counts.cancelled },
        ]}
      />
      <FilteredTable<Booking>
        url={BOOKINGS}
        title="All Bookings"
        noun={{ id: "booking", one: "booking", many: "bookings", all: "bookings" }}
        statuses={BOOKING_STATUSES}
        searchLabel="Search bookings"
        searchPlaceholder="Booking ID, client, provider or service..."
        columns={["Booking ID", "Client", "Provider", "Date", "Status", "Actions"]}
        row={(b) => (
          <tr key={b.id} data-testid="admin-booking">
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
                  <button type="button" className="button button-secondary" onClick={() => setReassigning(b)}>
                    Reassign<span className="visually-hidden"> booking #{b.id}</span>
                  </button>
                  {b.status === "confirmed" && (
                    <button type="button" className="button button-secondary" onClick={() => setRemoving(b)}>
                      Remove helper<span className="visually-hidden"> of booking #{b.id}</span>
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button-danger"
                    onClick={() => {
                      setWaiver(NO_WAIVER);
                      setCancelling(b);
                    }}
                  >
                    Cancel booking<span className="visually-hidden"> #{b.id}</span>
                  </button>
                </div>
              ) : (
                // Only confirmed bookings can be changed here; a bare "None" read as missing data.
                <span className="muted">{NO_ACTION[b.status] ?? "No changes"}</span>
              )}
            </td>
          </tr>
        )}
      />
      <ReassignDialog booking={reassigning} onClose={() => setReassigning(null)} onDone={done} />
      <RemoveHelperDialog booking={removing} onClose={() => setRemoving(null)} onDone={done} />
      <CancelBookingDialog
        booking={cancelling}
        reasonLabel="Cancellation reason"
        reasonRequired
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
