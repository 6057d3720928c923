// /admin's Bookings tab: the counts, every booking, and Reassign / Cancel booking on confirmed ones.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { CancelBookingDialog } from "../../components/CancelBookingDialog";
import { StatusBadge } from "../../components/StatusBadge";
import { api } from "../../lib/api";
import { formatVisit } from "../../lib/format";
import { listFilterSchema } from "../../lib/schemas/admin";
import { toast } from "../../lib/toast";
import type { Booking } from "../../lib/types";
import { FilteredTable } from "./FilteredTable";
import { CountCards } from "./ListParts";
import { ReassignDialog } from "./ReassignDialog";
import { ADMIN_ACTION, BOOKINGS, clientName, type Counts, failed, providerName } from "./common";

const BOOKING_STATUSES = ["scheduled", "confirmed", "completed", "cancelled"];

const BOOKING_FILTERS = listFilterSchema(BOOKING_STATUSES);

/** Admin cancel (spec): confirmed bookings only, a reason required; a paid one is refunded. */
function useAdminCancel(onDone: () => Promise<void>, onClose: () => void) {
  const cancel = useMutation({
    mutationFn: ({ booking, reason }: { booking: Booking; reason: string }) =>
      api.put(`/api/admin/bookings/${booking.id}/cancel`, { reason }),
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

/** Why a booking's row has no Reassign / Cancel booking buttons (only confirmed ones do). */
const NO_ACTION: Partial<Record<Booking["status"], string>> = {
  scheduled: "Waiting for payment",
  completed: "Visit done",
  cancelled: "Cancellation is final",
};

export function BookingsTab({ counts, onChanged }: { counts: Counts["bookings"]; onChanged: () => Promise<void> }) {
  const [reassigning, setReassigning] = useState<Booking | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  // onChanged invalidates every list of bookings (this one and the summary's) and the counts.
  const done = onChanged;
  const cancel = useAdminCancel(done, () => setCancelling(null));
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
        filterSchema={BOOKING_FILTERS}
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
              {b.status === "confirmed" ? (
                <div className="actions table-actions">
                  <button type="button" className="button button-secondary" onClick={() => setReassigning(b)}>
                    Reassign<span className="visually-hidden"> booking #{b.id}</span>
                  </button>
                  <button type="button" className="button button-danger" onClick={() => setCancelling(b)}>
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
      <CancelBookingDialog
        booking={cancelling}
        reasonLabel="Cancellation reason"
        reasonRequired
        refundTo="the client"
        onClose={() => setCancelling(null)}
        onConfirm={cancel}
      />
    </>
  );
}
