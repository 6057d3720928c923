// The care recipient's phone PIN: with it and her own phone she calls Kindly's phone menu to hear,
// confirm or cancel her visits. Organizers set it (setting it again unlocks it after three wrong
// tries); members see whether it is set. Hidden while Kindly's phone menu is not set up.
import { t } from "@lingui/core/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, errorMessage } from "../../lib/api";
import { InputField } from "../../components/Field";
import { apiQuery, useApiWrite } from "../../lib/query";
import { toast } from "../../lib/toast";
import type { PhonePinState as PinState } from "../../lib/types";
import type { Recipient } from "./common";
import { PhoneReminder } from "./PhoneReminder";

export function PhonePin({ recipient }: { recipient: Recipient }) {
  const path = `/api/care-recipients/${recipient.id}/phone-pin`;
  const client = useQueryClient();
  const { data } = useQuery(apiQuery<PinState>(path));
  const { put, isPending } = useApiWrite();
  const [pin, setPin] = useState("");
  const [error, setError] = useState("");
  if (!data || !data.setUp) return null;
  const id = `phone-pin-${recipient.id}`;
  const firstName = recipient.firstName;
  const status = data.locked
    ? t`Locked after three wrong tries. Set a new PIN to unlock it.`
    : data.set
      ? t`A PIN is set.`
      : t`No PIN yet.`;

  async function save(event: FormEvent) {
    event.preventDefault();
    setError("");
    try {
      const next = await put<PinState>(path, { pin });
      client.setQueryData([path], next);
      setPin("");
      toast({ title: t`PIN saved`, description: t`${firstName}'s phone PIN is saved.` });
    } catch (err) {
      setError((err instanceof ApiError && err.fieldErrors.pin?.[0]) || errorMessage(err));
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} data-testid="phone-pin">
      <h3 id={`${id}-heading`}>{t`Calling Kindly by phone`}</h3>
      <p>
        {recipient.phone
          ? t`${firstName} can call Kindly from the phone number above to hear, confirm or cancel visits. Kindly asks for a 4-digit PIN.`
          : t`${firstName} can call Kindly from their own phone to hear, confirm or cancel visits. Kindly asks for a 4-digit PIN.`}
      </p>
      <p data-testid="phone-pin-status">{status}</p>
      {recipient.phone && <PhoneReminder recipient={recipient} />}
      {recipient.myRole === "organizer" && (
        <form onSubmit={(event) => void save(event)} noValidate>
          <InputField
            id={id}
            label={t`New 4-digit PIN`}
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            value={pin}
            error={error}
            onInput={(event) => setPin((event.target as HTMLInputElement).value.replace(/\D/g, ""))}
          />
          <div className="actions">
            <button type="submit" className="button button-secondary" disabled={isPending}>
              {isPending ? t`Saving...` : t`Save PIN`}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
