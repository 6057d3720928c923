// The passkey button of the staff second step: "register" creates a passkey for a staff member
// setting up the step; "verify" uses one to confirm it's them. The browser's WebAuthn prompts go
// through @simplewebauthn/browser; the server's ceremony calls are django-otp-webauthn's (beginUrl,
// completeUrl, accounts/second_factor_views.py), and success goes on to doneUrl.
import { t } from "@lingui/core/macro";
import { useEffect, useRef, useState } from "react";
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { api, errorMessage } from "../lib/api";

export interface PasskeyStepProps {
  mode: "register" | "verify";
  beginUrl: string;
  completeUrl: string;
  doneUrl: string;
}

export const passkeyCancelled = () => t`The passkey step was cancelled or took too long. Please try again.`;
export const passkeyAlreadyHere = () =>
  t`This device already has a Kindly passkey for you. Sign in again and use it to confirm it's you.`;
export const passkeyNotHere = () =>
  t`Passkeys cannot be used at this web address. Please use an authenticator app instead.`;
export const noPasskeysInBrowser = () => t`This browser cannot use passkeys. Please use another way below.`;

/** What to tell a person when the browser's passkey prompt or the server's check failed. */
export function passkeyProblem(error: unknown): string {
  // The prompt rejects with a DOMException (or @simplewebauthn's WebAuthnError) named by the spec.
  const name = typeof error === "object" && error !== null && "name" in error ? String(error.name) : "";
  if (name === "NotAllowedError" || name === "AbortError") return passkeyCancelled();
  if (name === "InvalidStateError") return passkeyAlreadyHere();
  if (name === "SecurityError") return passkeyNotHere();
  return errorMessage(error);
}

export function PasskeyStep({ mode, beginUrl, completeUrl, doneUrl }: PasskeyStepProps) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState("");
  const [problem, setProblem] = useState("");
  const [failures, setFailures] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  // After a failure the button is enabled again: focus goes back to it, with the problem as its description.
  useEffect(() => {
    if (failures > 0) button.current?.focus();
  }, [failures]);
  const label = mode === "register" ? t`Create a passkey` : t`Use my passkey`;

  if (!browserSupportsWebAuthn()) return <p>{noPasskeysInBrowser()}</p>;

  async function run() {
    setBusy(true);
    setProblem("");
    setProgress(t`Follow the steps your device shows.`);
    try {
      if (mode === "register") {
        const optionsJSON = await api.post<PublicKeyCredentialCreationOptionsJSON>(beginUrl);
        await api.post(completeUrl, await startRegistration({ optionsJSON }));
      } else {
        const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>(beginUrl);
        await api.post(completeUrl, await startAuthentication({ optionsJSON }));
      }
    } catch (error) {
      setProgress("");
      setProblem(passkeyProblem(error));
      setBusy(false);
      setFailures((n) => n + 1);
      return;
    }
    setProgress(mode === "register" ? t`Your passkey is ready. One moment…` : t`Thank you. One moment…`);
    window.location.assign(doneUrl);
  }

  return (
    <div className="passkey-step">
      <button
        ref={button}
        type="button"
        className="button button-primary"
        onClick={() => void run()}
        disabled={busy}
        aria-describedby={problem ? "passkey-problem" : undefined}
      >
        {label}
      </button>
      <p className="passkey-progress" role="status">
        {progress}
      </p>
      {problem && (
        <p className="field-error" id="passkey-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
