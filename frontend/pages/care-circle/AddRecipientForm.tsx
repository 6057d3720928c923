// "Add someone you care for" (or yourself): a new care recipient and their circle.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { useSchemaForm } from "../../lib/forms";
import { useApiWrite } from "../../lib/query";
import { EMPTY_RECIPIENT, recipientSchema, type RecipientValues } from "../../lib/schemas/circle";
import { toast } from "../../lib/toast";
import { RecipientFields } from "./RecipientFields";
import { failure } from "./common";

type NewRecipientValues = RecipientValues & { isSelf: boolean };
const NEW_RECIPIENT: NewRecipientValues = { ...EMPTY_RECIPIENT, isSelf: false };

export function AddRecipientForm({ canAddSelf, onAdded }: { canAddSelf: boolean; onAdded: () => Promise<void> }) {
  const write = useApiWrite();
  const {
    form,
    values,
    set,
    error: message,
    handleSubmit,
    showServerErrors,
  } = useSchemaForm<NewRecipientValues>({
    schema: recipientSchema,
    defaultValues: NEW_RECIPIENT,
    onChange: "none",
  });
  const [busy, setBusy] = useState(false);
  const formError = form.formState.errors.root?.message;

  async function add(sent: NewRecipientValues) {
    setBusy(true);
    try {
      await write.post("/api/care-recipients", sent);
    } catch (error) {
      const message = failure(error, t`Could not add this person`);
      if (!showServerErrors(error)) form.setError("root", { type: "server", message });
      setBusy(false);
      return;
    }
    form.reset(NEW_RECIPIENT);
    setBusy(false);
    toast({ title: t`Added`, description: t`Their care circle is ready. You can invite family now.` });
    await onAdded();
  }

  return (
    <section className="card" aria-labelledby="add-recipient-heading" data-testid="add-recipient">
      <h2 id="add-recipient-heading">{t`Add someone you care for`}</h2>
      <p className="muted">{t`Only people in their care circle, and the helper you book, see these details.`}</p>
      <form onSubmit={(e) => void handleSubmit(add)(e)} noValidate>
        {canAddSelf && (
          <label className="choice" htmlFor="recipient-self">
            <input
              id="recipient-self"
              type="checkbox"
              checked={values.isSelf}
              onChange={(e) => set("isSelf", e.target.checked)}
            />
            <span>{t`This is me: I am arranging help for myself`}</span>
          </label>
        )}
        <RecipientFields values={values} set={set} message={message} idPrefix="recipient" />
        {formError && (
          <p className="page-message" role="alert">
            {formError}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? t`Adding…` : t`Add to my care circles`}
          </button>
        </div>
      </form>
    </section>
  );
}
