// The passkey button of the staff second step: "register" creates a passkey for a staff member
// setting up the step; "verify" uses one to confirm it's them. The browser's WebAuthn prompts go
// through @simplewebauthn/browser; the server's ceremony calls are django-otp-webauthn's (beginUrl,
// completeUrl, accounts/second_factor_views.py), and success goes on to doneUrl.
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

export const PASSKEY_CANCELLED = "The passkey step was cancelled or took too long. Please try again.";
export const PASSKEY_ALREADY_HERE =
  "This device already has a Kindly passkey for you. Sign in again and use it to confirm it's you.";
export const PASSKEY_NOT_HERE = "Passkeys cannot be used at this web address. Please use an authenticator app instead.";
export const NO_PASSKEYS_IN_BROWSER = "This browser cannot use passkeys. Please use another way below.";

/** What to tell a person when the browser's passkey prompt or the server's check failed. */
export function passkeyProblem(error: unknown): string {
  // The prompt rejects with a DOMException (or @simplewebauthn's WebAuthnError) named by the spec.
  const name = typeof error === "object" && error !== null && "name" in error ? String(error.name) : "";
  if (name === "NotAllowedError" || name === "AbortError") return PASSKEY_CANCELLED;
  if (name === "InvalidStateError") return PASSKEY_ALREADY_HERE;
  if (name === "SecurityError") return PASSKEY_NOT_HERE;
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
  const label = mode === "register" ? "Create a passkey" : "Use my passkey";

  if (!browserSupportsWebAuthn()) return <p>{NO_PASSKEYS_IN_BROWSER}</p>;

  async function run() {
    setBusy(true);
    setProblem("");
    setProgress("Follow the steps your device shows.");
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
    setProgress(mode === "register" ? "Your passkey is ready. One moment…" : "Thank you. One moment…");
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
