// "Reassign" a confirmed booking to another verified provider (searched on the server when they are
// many), with a reason.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Dialog, DialogClose } from "../../components/Dialog";
import { SelectField, TextareaField } from "../../components/Field";
import { api, isUnauthorizedError } from "../../lib/api";
import { personName, plural, specialtyName } from "../../lib/format";
import { useSchemaForm } from "../../lib/forms";
import { pageQuery } from "../../lib/query";
import { reassignPayload, reassignSchema, type ReassignValues } from "../../lib/schemas/admin";
import { TEXT_MAX } from "../../lib/schemas/booking";
import { toast } from "../../lib/toast";
import type { Booking, Provider } from "../../lib/types";
import { useDebounced } from "../../lib/usePagedList";
import { ADMIN_ACTION, failed, PROVIDERS, REASSIGN_CHOICES } from "./common";

function providerOptionLabel(p: Provider): string {
  const name = personName(p.user) || `Provider #${p.id}`;
  const specialties = p.specialties.map(specialtyName).join(", ");
  return specialties ? `${name} - ${specialties}` : name;
}

/** Verified providers to choose from, asked of the server while the dialog is open: the first
 * REASSIGN_CHOICES, or those matching the dialog's search when there are more. */
function useVerifiedChoices(open: boolean, search: string) {
  const params: Record<string, string> = { status: "verified", limit: String(REASSIGN_CHOICES) };
  if (search) params.search = search;
  const choices = useQuery({ ...pageQuery<Provider>(PROVIDERS, params), enabled: open });
  const error = choices.error;
  useEffect(() => {
    // A lost session is lib/query's; anything else is said here.
    if (error && !isUnauthorizedError(error)) {
      toast({ title: "Error", description: "Could not load the verified providers", variant: "destructive" });
    }
  }, [error]);
  if (choices.isError) return { items: [], total: 0 };
  return choices.data ?? null;
}

const NO_CHOICE: ReassignValues = { providerId: "", reason: "", search: "" };

export function ReassignDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const { handleSubmit, values, set, error } = useSchemaForm<ReassignValues>({
    schema: reassignSchema,
    defaultValues: NO_CHOICE,
    onChange: "none",
    resetOn: booking?.id,
  });
  const { providerId } = values;
  const search = useDebounced(values.search.trim());
  const choices = useVerifiedChoices(booking !== null, search);
  // Once the list was longer than one answer, the search stays (narrowing it must not hide it).
  const [long, setLong] = useState(false);
  useEffect(() => setLong(false), [booking?.id]);
  useEffect(() => {
    if (choices && choices.total > choices.items.length) setLong(true);
  }, [choices]);
  const options = (choices?.items ?? [])
    .filter((p) => p.id !== booking?.providerId)
    .map((p) => ({ value: String(p.id), label: providerOptionLabel(p) }));

  const reassign = useMutation({
    mutationFn: ({ booking: b, values: sent }: { booking: Booking; values: ReassignValues }) =>
      api.put(`/api/admin/bookings/${b.id}/reassign`, reassignPayload(sent)),
    meta: ADMIN_ACTION,
    onSuccess: async () => {
      toast({ title: "Success", description: "Booking reassigned successfully" });
      await onDone();
      onClose();
    },
    onError: (error) => failed(error, "Failed to reassign booking"),
  });
  const saving = reassign.isPending;
  const submit = handleSubmit((checked) => {
    if (booking) reassign.mutate({ booking, values: checked });
  });

  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Reassign Booking"
      description={booking ? `Choose a verified provider for booking #${booking.id}.` : undefined}
      testId="reassign-dialog"
      footer={
        <>
          {/* Not "Cancel": beside the row's "Cancel booking" it read as cancelling the booking. */}
          <DialogClose>Keep as is</DialogClose>
          <button type="button" className="button button-primary" disabled={!providerId || saving} onClick={submit}>
            Reassign Booking
          </button>
        </>
      }
    >
      {long && (
        <div className="field">
          <label htmlFor="reassign-search">Find a verified provider</label>
          <input
            id="reassign-search"
            type="search"
            placeholder="Name, email, or specialty"
            aria-describedby="reassign-search-hint"
            value={values.search}
            onChange={(e) => set("search", e.currentTarget.value)}
          />
          <p id="reassign-search-hint" className="field-hint" role="status">
            {choices
              ? choices.total > choices.items.length
                ? `Showing the first ${choices.items.length} of ${choices.total}. Type to narrow the list.`
                : `${plural(choices.total, "provider matches", "providers match")}.`
              : "Searching…"}
          </p>
        </div>
      )}
      <SelectField
        id="reassign-provider"
        label="New provider"
        placeholder={choices === null ? "Loading verified providers…" : "Select a verified provider"}
        options={options}
        value={providerId}
        error={error("providerId")}
        onChange={(e) => set("providerId", e.currentTarget.value)}
      />
      <TextareaField
        id="reassign-reason"
        label="Reason for reassignment"
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
    </Dialog>
  );
}
