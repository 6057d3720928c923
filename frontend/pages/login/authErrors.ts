// What /login says when Firebase Authentication refuses (spec section 8), in the card and a toast.
import { t } from "@lingui/core/macro";
import { errorMessage } from "../../lib/api";
import { invalidEmail, shortPassword } from "../../lib/schemas/sign-in";

export type Mode = "sign-in" | "sign-up";

export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

const tooMany = () => t`Too many attempts. Please wait a moment and try again.`;
const offline = () => t`Could not reach the sign-in service. Please check your connection.`;

/** Spec section 8: the description shown for a failed Firebase call. */
export function describeAuthError(error: unknown, mode: Mode, google: boolean): string {
  const code = errorCode(error);
  if (google) {
    if (code === "auth/popup-blocked") return t`Popup was blocked. Please allow popups and try again.`;
    if (code === "auth/popup-closed-by-user" || code === "auth/cancelled-popup-request") {
      return mode === "sign-in" ? t`Sign-in was cancelled.` : t`Sign-up was cancelled.`;
    }
    if (code === "auth/unauthorized-domain") return t`Domain not authorized for Google sign-in.`;
    if (mode === "sign-up" && code === "auth/account-exists-with-different-credential") {
      return t`An account already exists with this email. Try signing in instead.`;
    }
  } else if (mode === "sign-up") {
    if (code === "auth/email-already-in-use") return t`This email is already registered. Try signing in instead.`;
    if (code === "auth/weak-password") return shortPassword();
    if (code === "auth/invalid-email") return invalidEmail();
  } else {
    if (
      [
        "auth/invalid-credential",
        "auth/wrong-password",
        "auth/user-not-found",
        "auth/invalid-login-credentials",
      ].includes(code)
    ) {
      return t`Incorrect email or password. Please try again.`;
    }
    if (code === "auth/invalid-email") return invalidEmail();
    if (code === "auth/user-disabled")
      return t`This account has been disabled. To reach Kindly Support, see the contacts at the bottom of this page.`;
  }
  if (code === "auth/too-many-requests") return tooMany();
  if (code === "auth/network-request-failed") return offline();
  return errorMessage(error);
}

export function failureTitle(mode: Mode, google: boolean): string {
  if (google) return mode === "sign-in" ? t`Google sign in failed` : t`Google sign up failed`;
  return mode === "sign-in" ? t`Sign in failed` : t`Sign up failed`;
}

export function resetFailureText(code: string): string {
  if (code === "auth/too-many-requests") return tooMany();
  if (code === "auth/network-request-failed") return offline();
  return t`We couldn't send the reset email right now. Please try again in a few minutes.`;
}
