// A button whose action (remove, leave) is confirmed in a dialog first.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { Dialog, DialogClose } from "../../components/Dialog";

export function ConfirmButton({
  label,
  title,
  description,
  confirmLabel,
  onConfirm,
  testId,
}: {
  label: string;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => Promise<boolean>;
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={title}
      description={description}
      trigger={
        <button type="button" className="button button-secondary" data-testid={testId}>
          {label}
        </button>
      }
      footer={
        <>
          <DialogClose className="button button-secondary">{t`Keep`}</DialogClose>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void onConfirm().then((done) => {
                setBusy(false);
                if (done) setOpen(false);
              });
            }}
          >
            {confirmLabel}
          </button>
        </>
      }
    />
  );
}
