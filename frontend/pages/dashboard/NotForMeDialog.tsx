// "Not for me" on a request offered to a helper (Available Requests): she passes on it, saying why if
// she likes (staff read it; the family is not told). The next helper free then is offered it at once
// (POST /api/service-requests/{id}/not-for-me), and it leaves her list.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { Dialog, DialogClose } from "../../components/Dialog";
import { TextareaField } from "../../components/Field";
import { errorMessage, isUnauthorizedError } from "../../lib/api";
import { useSchemaForm } from "../../lib/forms";
import { useApiWrite } from "../../lib/query";
import { DECLINE_REASON_MAX, notForMeSchema, type DeclineValues } from "../../lib/schemas/decline";
import type { ServiceRequest } from "../../lib/types";

const NO_REASON: DeclineValues = { reason: "" };

export function NotForMeDialog({
  request,
  onClose,
  onPassed,
}: {
  /** The offered request she passes on; null keeps the dialog closed. */
  request: ServiceRequest | null;
  onClose: () => void;
  onPassed: () => void;
}) {
  const { form, values, set, error, handleSubmit } = useSchemaForm<DeclineValues>({
    schema: notForMeSchema,
    defaultValues: NO_REASON,
    onChange: "clear",
    resetOn: request?.id,
  });
  const [busy, setBusy] = useState(false);
  const { post } = useApiWrite();
  useEffect(() => setBusy(false), [request?.id]);

  const pass = async (values: DeclineValues) => {
    if (!request) return;
    setBusy(true);
    try {
      await post(`/api/service-requests/${request.id}/not-for-me`, { reason: values.reason.trim() });
      onPassed();
      onClose();
    } catch (failure) {
      if (isUnauthorizedError(failure)) return; // lib/query says so and signs in again
      form.setError("reason", { type: "server", message: errorMessage(failure) });
    } finally {
      setBusy(false);
    }
  };
  const confirm = () => {
    if (!request || busy) return;
    void handleSubmit(pass, () => document.getElementById("not-for-me-reason")?.focus())();
  };

  return (
    <Dialog
      open={request !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t`Pass on this request?`}
      description={t`It will leave your list and be offered to another helper nearby. You cannot take it back.`}
      testId="not-for-me-dialog"
      footer={
        <>
          <DialogClose>
            <Trans>Keep It</Trans>
          </DialogClose>
          <button type="button" className="button button-danger" onClick={confirm} disabled={busy}>
            {busy ? t`Passing it on...` : t`Not for Me`}
          </button>
        </>
      }
    >
      {request && (
        <p className="dialog-subject">
          <strong>{request.title}</strong>
        </p>
      )}
      <TextareaField
        id="not-for-me-reason"
        label={t`Why not? (optional)`}
        hint={t`For example: it is too far for me. Only Kindly's staff read this.`}
        value={values.reason}
        maxLength={DECLINE_REASON_MAX}
        onChange={(e) => set("reason", e.target.value)}
        error={error("reason")}
      />
    </Dialog>
  );
}
