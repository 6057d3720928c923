// "Edit <name>'s details" (organizers): the person's details in place.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { useSchemaForm } from "../../lib/forms";
import { useApiWrite } from "../../lib/query";
import { recipientSchema, type RecipientValues } from "../../lib/schemas/circle";
import { toast } from "../../lib/toast";
import { RecipientFields } from "./RecipientFields";
import { failure, type Recipient } from "./common";

export function EditRecipient({ recipient, onChanged }: { recipient: Recipient; onChanged: () => Promise<void> }) {
  const write = useApiWrite();
  const initial: RecipientValues = {
    firstName: recipient.firstName,
    lastName: recipient.lastName,
    street: recipient.street,
    unit: recipient.unit,
    town: recipient.town,
    state: recipient.state,
    zipCode: recipient.zipCode,
    phone: recipient.phone,
    notesForHelpers: recipient.notesForHelpers,
  };
  const [open, setOpen] = useState(false);
  const firstName = recipient.firstName;
  const {
    form,
    values,
    set,
    error: message,
    handleSubmit,
    showServerErrors,
  } = useSchemaForm<RecipientValues>({
    schema: recipientSchema,
    defaultValues: initial,
    onChange: "none",
  });
  const [busy, setBusy] = useState(false);

  if (!open) {
    return (
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            form.reset(initial);
            setOpen(true);
          }}
        >
          {t`Edit ${firstName}'s details`}
        </button>
      </div>
    );
  }

  async function save(sent: RecipientValues) {
    setBusy(true);
    try {
      await write.patch(`/api/care-recipients/${recipient.id}`, sent);
    } catch (error) {
      const message = failure(error, t`Could not save the details`);
      if (!showServerErrors(error)) form.setError("firstName", { type: "server", message });
      setBusy(false);
      return;
    }
    setBusy(false);
    setOpen(false);
    toast({ title: t`Saved`, description: t`The details are up to date.` });
    await onChanged();
  }

  return (
    <form onSubmit={(e) => void handleSubmit(save)(e)} noValidate data-testid="edit-recipient">
      <h3>{t`Edit ${firstName}'s details`}</h3>
      <RecipientFields values={values} set={set} message={message} idPrefix={`edit-${recipient.id}`} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t`Saving…` : t`Save details`}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setOpen(false)}>
          {t`Cancel`}
        </button>
      </div>
    </form>
  );
}
