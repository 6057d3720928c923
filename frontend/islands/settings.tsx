// /settings: closing the account. The user types CLOSE (any case) in a confirmation dialog; the server
// cancels what must be cancelled, ends the session and queues the "Account closed" toast
// shown on / (where the browser goes next). The data download is a plain link in the page.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { Dialog, DialogClose } from "../components/Dialog";
import { InputField } from "../components/Field";
import { ApiError, errorMessage, isUnauthorizedError } from "../lib/api";
import { useSchemaForm } from "../lib/forms";
import { mountQueryIsland, useApiWrite } from "../lib/query";
import { closeAccountSchema, CONFIRM_WORD, type CloseAccountValues } from "../lib/schemas/account";
import { RULES } from "../lib/rules.generated";
import { toast } from "../lib/toast";

interface SettingsProps {
  isAdmin: boolean;
  hasVisitWithin48Hours: boolean;
}

const NOTHING_TYPED: CloseAccountValues = { confirm: "" };

function CloseAccount({ isAdmin, hasVisitWithin48Hours }: SettingsProps) {
  const [open, setOpen] = useState(false);
  // The typed word, checked on submit (accounts AccountCloseInputSerializer).
  const { form, values, error, set, handleSubmit } = useSchemaForm<CloseAccountValues>({
    schema: closeAccountSchema,
    defaultValues: NOTHING_TYPED,
    onChange: "none",
  });
  const [busy, setBusy] = useState(false);
  const write = useApiWrite();
  const hours = RULES.cancellation.WINDOW_HOURS;

  if (isAdmin) {
    return (
      <p data-testid="close-admin-note">
        {t`Admin accounts cannot be closed from Settings. Ask another admin to remove your admin rights first.`}
      </p>
    );
  }

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) form.reset(NOTHING_TYPED);
  }

  async function close({ confirm }: CloseAccountValues) {
    setBusy(true);
    try {
      await write.post("/api/account/close", { confirm: confirm.trim() });
    } catch (err) {
      setBusy(false);
      if (isUnauthorizedError(err)) return; // lib/query's
      const message = (err instanceof ApiError && err.fieldErrors.confirm?.[0]) || errorMessage(err);
      form.setError("confirm", { type: "server", message });
      toast({ title: t`Could not close your account`, description: message, variant: "destructive" });
      return;
    }
    // Signed out now; the home page shows the toast the server queued.
    window.location.assign("/");
  }

  return (
    <>
      {hasVisitWithin48Hours && (
        <p className="page-message" data-testid="close-visit-soon">
          {t`You have a visit within the next ${hours} hours. You can close your account once it has taken place.`}
        </p>
      )}
      <button type="button" className="button button-danger" onClick={() => onOpenChange(true)}>
        {t`Close my account`}
      </button>
      <Dialog
        open={open}
        onOpenChange={onOpenChange}
        title={t`Close your account?`}
        description={t`You will be signed out and will not be able to sign in again. Your open requests and upcoming bookings will be cancelled, and your personal data will be deleted within 30 days. This cannot be undone.`}
        testId="close-account-dialog"
      >
        <form onSubmit={(e) => void handleSubmit(close)(e)} noValidate>
          <InputField
            id="close-confirm"
            label={t`Type ${CONFIRM_WORD} to confirm`}
            value={values.confirm}
            onChange={(e) => set("confirm", e.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            required
            error={error("confirm")}
          />
          <div className="dialog-footer">
            <DialogClose>{t`Keep my account`}</DialogClose>
            <button type="submit" className="button button-danger" disabled={busy}>
              {busy ? t`Closing account...` : t`Close account`}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

mountQueryIsland(CloseAccount, "settings");
