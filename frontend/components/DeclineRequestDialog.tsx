// The provider's "Decline" dialog for a request sent to her directly (a reason is required; the
// circle reads it): its own module, loaded when first opened (lib/opened), with the form library.
import { t } from "@lingui/core/macro";
import { useEffect, useState } from "react";
import { errorMessage, isUnauthorizedError } from "../lib/api";
import { useSchemaForm } from "../lib/forms";
import { useApiWrite } from "../lib/query";
import { DECLINE_REASON_MAX, declineSchema, type DeclineValues } from "../lib/schemas/decline";
import type { ServiceRequest } from "../lib/types";
import { Dialog, DialogClose } from "./Dialog";
import { TextareaField } from "./Field";

const NO_REASON: DeclineValues = { reason: "" };

/** "Decline" with a required reason; onDeclined gets the request as it is afterwards. */
export function DeclineRequestDialog({
  request,
  onClose,
  onDeclined,
}: {
  /** The request to decline; null keeps the dialog closed. */
  request: ServiceRequest | null;
  onClose: () => void;
  onDeclined: (request: ServiceRequest) => void;
}) {
  // The reason is checked on "Decline" (requests_app decline_reason_problem); typing takes its
  // message away.
  const { form, values, set, error, handleSubmit } = useSchemaForm<DeclineValues>({
    schema: declineSchema,
    defaultValues: NO_REASON,
    onChange: "clear",
    resetOn: request?.id,
  });
  const [busy, setBusy] = useState(false);
  const { post } = useApiWrite();
  useEffect(() => setBusy(false), [request?.id]);

  const decline = async (values: DeclineValues) => {
    if (!request) return;
    setBusy(true);
    try {
      const updated = await post<ServiceRequest>(`/api/service-requests/${request.id}/decline`, {
        reason: values.reason.trim(),
      });
      onDeclined(updated);
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
    void handleSubmit(decline, () => document.getElementById("decline-reason")?.focus())();
  };

  const client = request?.client?.firstName;
  return (
    <Dialog
      open={request !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t`Decline this request`}
      description={
        client
          ? t`${client} will be told that you cannot take it, and why.`
          : t`The client will be told that you cannot take it, and why.`
      }
      testId="decline-dialog"
      footer={
        <>
          <DialogClose>{t`Keep Request`}</DialogClose>
          <button type="button" className="button button-danger" onClick={confirm} disabled={busy}>
            {busy ? t`Declining...` : t`Decline`}
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
        id="decline-reason"
        label={t`Why can't you take it?`}
        required
        hint={t`For example: I am away that week.`}
        value={values.reason}
        maxLength={DECLINE_REASON_MAX}
        onChange={(e) => set("reason", e.target.value)}
        error={error("reason")}
      />
    </Dialog>
  );
}
