// "Reassign" a confirmed booking to another verified provider (searched on the server when they are
// many), with a reason.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Dialog, DialogClose } from "../../components/Dialog";
import { SelectField, TextareaField } from "../../components/Field";
import { api, isUnauthorizedError } from "../../lib/api";
import { personName, specialtyName } from "../../lib/format";
import { useSchemaForm } from "../../lib/forms";
import { pageQuery } from "../../lib/query";
import { reassignPayload, reassignSchema, type ReassignValues } from "../../lib/schemas/admin";
import { TEXT_MAX } from "../../lib/schemas/booking";
import { toast } from "../../lib/toast";
import type { Booking, Provider } from "../../lib/types";
import { useDebounced } from "../../lib/usePagedList";
import { ADMIN_ACTION, failed, PROVIDERS, REASSIGN_CHOICES } from "./common";

function providerOptionLabel(p: Provider): string {
  const id = p.id;
  const name = personName(p.user) || t`Provider #${id}`;
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
      toast({ title: t`Error`, description: t`Could not load the verified providers`, variant: "destructive" });
    }
  }, [error]);
  if (choices.isError) return { items: [], total: 0 };
  return choices.data ?? null;
}

/** Under the search: how many of the matches the list shows, or how many match. */
function searchHint(shown: number, total: number): string {
  if (total > shown) return t`Showing the first ${shown} of ${total}. Type to narrow the list.`;
  return plural(total, { one: "# provider matches.", other: "# providers match." });
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
      toast({ title: t`Success`, description: t`Booking reassigned successfully` });
      await onDone();
      onClose();
    },
    onError: (error) => failed(error, t`Failed to reassign booking`),
  });
  const saving = reassign.isPending;
  const bookingId = booking?.id ?? 0;
  const submit = handleSubmit((checked) => {
    if (booking) reassign.mutate({ booking, values: checked });
  });

  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t`Reassign Booking`}
      description={booking ? t`Choose a verified provider for booking #${bookingId}.` : undefined}
      testId="reassign-dialog"
      footer={
        <>
          {/* Not "Cancel": beside the row's "Cancel booking" it read as cancelling the booking. */}
          <DialogClose>
            <Trans>Keep as is</Trans>
          </DialogClose>
          <button type="button" className="button button-primary" disabled={!providerId || saving} onClick={submit}>
            <Trans>Reassign Booking</Trans>
          </button>
        </>
      }
    >
      {long && (
        <div className="field">
          <label htmlFor="reassign-search">
            <Trans>Find a verified provider</Trans>
          </label>
          <input
            id="reassign-search"
            type="search"
            placeholder={t`Name, email, or specialty`}
            aria-describedby="reassign-search-hint"
            value={values.search}
            onChange={(e) => set("search", e.currentTarget.value)}
          />
          <p id="reassign-search-hint" className="field-hint" role="status">
            {choices ? searchHint(choices.items.length, choices.total) : t`Searching…`}
          </p>
        </div>
      )}
      <SelectField
        id="reassign-provider"
        label={t`New provider`}
        placeholder={choices === null ? t`Loading verified providers…` : t`Select a verified provider`}
        options={options}
        value={providerId}
        error={error("providerId")}
        onChange={(e) => set("providerId", e.currentTarget.value)}
      />
      <TextareaField
        id="reassign-reason"
        label={t`Reason for reassignment`}
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
    </Dialog>
  );
}
