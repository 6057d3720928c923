// /login's password reset: the card that sends Firebase's reset email, and the one that says it went.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { FormEvent, ReactNode, RefObject } from "react";
import { FormAlert, type Failure } from "./LoginParts";

export function ResetCard({
  heading,
  unavailable,
  productName,
  failure,
  alertRef,
  busy,
  disabled,
  emailInput,
  onSend,
  onBack,
}: {
  heading: ReactNode;
  /** Said when Firebase cannot start. */
  unavailable: ReactNode;
  productName: string;
  failure: Failure | null;
  alertRef: RefObject<HTMLDivElement | null>;
  busy: boolean;
  disabled: boolean;
  emailInput: ReactNode;
  onSend: (event: FormEvent<HTMLFormElement>) => unknown;
  onBack: () => void;
}) {
  return (
    <>
      {heading}
      {unavailable}
      <p className="muted">
        {t`Enter the email address you use for ${productName}. We'll email you a link to choose a new password.`}
      </p>
      <FormAlert failure={failure} alertRef={alertRef} />
      <form onSubmit={onSend} noValidate aria-busy={busy}>
        {emailInput}
        <button type="submit" className="button button-primary button-block" disabled={disabled}>
          {busy ? t`Sending...` : t`Send Reset Link`}
        </button>
      </form>
      <p className="login-toggle">
        <button type="button" className="link-button" onClick={onBack} disabled={busy}>
          {t`Back to sign in`}
        </button>
      </p>
    </>
  );
}

export function ResetSentCard({
  heading,
  productName,
  sentTo,
  onBack,
  onSendAgain,
}: {
  heading: ReactNode;
  productName: string;
  sentTo: string;
  onBack: () => void;
  onSendAgain: () => void;
}) {
  return (
    <>
      {heading}
      <div role="status" data-testid="reset-sent">
        <p>
          <Trans>
            If there is a {productName} account for <strong className="login-email">{sentTo}</strong>, we've sent it a
            link to choose a new password. The link works for one hour.
          </Trans>
        </p>
      </div>
      <p className="muted">
        {t`Nothing after a few minutes? Look in your spam or junk folder, or check the address and send it again.`}
      </p>
      <button type="button" className="button button-primary button-block" onClick={onBack}>
        {t`Back to Sign In`}
      </button>
      <p className="login-toggle">
        <button type="button" className="link-button" onClick={onSendAgain}>
          {t`Send it again`}
        </button>
      </p>
    </>
  );
}
