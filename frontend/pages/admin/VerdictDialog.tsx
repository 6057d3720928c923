// Approve / Reject confirmed in a dialog, with an optional note for the audit log.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Dialog, DialogClose } from "../../components/Dialog";
import { TextareaField } from "../../components/Field";
import { personName } from "../../lib/format";
import { useSchemaForm } from "../../lib/forms";
import { verdictSchema, type VerdictValues } from "../../lib/schemas/admin";
import { TEXT_MAX } from "../../lib/schemas/booking";
import type { Provider } from "../../lib/types";
import type { Verdict } from "./common";

export interface PendingVerdict {
  provider: Provider;
  status: Verdict;
}

function verdictTexts({ provider, status }: PendingVerdict): { title: string; description: string; action: string } {
  const name = personName(provider.user) || t`this provider`;
  if (status === "verified") {
    return {
      title: t`Approve ${name}?`,
      description:
        provider.verificationStatus === "rejected"
          ? t`${name} was rejected before. Approving verifies them now: they can see open requests, with the town and ZIP of each, and accept them.`
          : t`${name} will be verified: they can see open requests, with the town and ZIP of each, and accept them.`,
      action: t`Approve`,
    };
  }
  return {
    title: t`Reject ${name}?`,
    description: t`${name} will be told their application was not approved. You can still approve them later from Rejected Providers.`,
    action: t`Reject`,
  };
}

const NO_NOTE: VerdictValues = { reason: "" };

/** Approve / Reject asks first: the decision lets a stranger see seniors' home addresses (or not). */
export function VerdictDialog({
  verdict,
  busy,
  onClose,
  onConfirm,
}: {
  verdict: PendingVerdict | null;
  busy: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const { handleSubmit, values, set, error } = useSchemaForm<VerdictValues>({
    schema: verdictSchema,
    defaultValues: NO_NOTE,
    onChange: "none",
    resetOn: verdict && `${verdict.provider.id} ${verdict.status}`,
  });
  const confirm = handleSubmit(({ reason }) => onConfirm(reason.trim()));
  const texts = verdict ? verdictTexts(verdict) : null;
  return (
    <Dialog
      open={verdict !== null}
      onOpenChange={(open) => !open && onClose()}
      title={texts?.title ?? ""}
      description={texts?.description}
      testId="verdict-dialog"
      footer={
        <>
          <DialogClose>
            <Trans>Keep Reviewing</Trans>
          </DialogClose>
          <button
            type="button"
            className={`button ${verdict?.status === "rejected" ? "button-danger" : "button-primary"}`}
            disabled={busy}
            onClick={confirm}
          >
            {texts?.action}
          </button>
        </>
      }
    >
      <TextareaField
        id="verdict-reason"
        label={t`Note for the audit log (optional)`}
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
    </Dialog>
  );
}
