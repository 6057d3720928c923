// A modal dialog over Radix Dialog: focus trapped and restored, Escape closes, title and
// description announced. Use controlled (open/onOpenChange) with an optional trigger.
import { t } from "@lingui/core/macro";
import * as RadixDialog from "@radix-ui/react-dialog";
import { useLayoutEffect, useRef, type ReactNode } from "react";

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read out when the dialog opens. */
  description?: ReactNode;
  /** An element that opens the dialog (rendered with asChild). */
  trigger?: ReactNode;
  children?: ReactNode;
  /** The buttons row. */
  footer?: ReactNode;
  testId?: string;
}

export function Dialog({ open, onOpenChange, title, description, trigger, children, footer, testId }: DialogProps) {
  // Without a Radix Trigger, Radix cannot tell where focus came from: remember the element that
  // had focus when the dialog opened and give focus back to it on close.
  const returnTo = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && !trigger) returnTo.current = document.activeElement as HTMLElement | null;
  }, [open, trigger]);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger>}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className="dialog-content"
          data-testid={testId}
          onCloseAutoFocus={(event) => {
            const target = returnTo.current;
            if (!trigger && target && target.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
          {description && (
            <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description>
          )}
          {children}
          {footer && <div className="dialog-footer">{footer}</div>}
          <RadixDialog.Close className="dialog-close" aria-label={t`Close`}>
            <span aria-hidden="true">×</span>
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A button that closes the surrounding dialog. */
export function DialogClose({
  children,
  className = "button button-secondary",
}: {
  children: ReactNode;
  className?: string;
}) {
  return (
    <RadixDialog.Close className={className} type="button">
      {children}
    </RadixDialog.Close>
  );
}
