// /login's sign-in and sign-up card: Google, or email and password (and names to sign up).
import { t } from "@lingui/core/macro";
import type { FormEvent, ReactNode, RefObject } from "react";
import { SelectField, type SelectOption } from "../../components/Field";
import type { Messages } from "../../lib/forms";
import type { SignInValues } from "../../lib/schemas/sign-in";
import { FormAlert, GoogleIcon, LoginInput, nextNoteFor, type Failure } from "./LoginParts";

type FieldName = keyof SignInValues;

export function SignInCard({
  signIn,
  heading,
  unavailable,
  productName,
  next,
  failure,
  alertRef,
  busy,
  disabled,
  emailInput,
  values,
  errors,
  fieldId,
  language,
  languages,
  onLanguage,
  set,
  onSubmit,
  onGoogle,
  onForgot,
  onToggle,
}: {
  /** Signing in (else signing up). */
  signIn: boolean;
  heading: ReactNode;
  /** Said when Firebase cannot start. */
  unavailable: ReactNode;
  productName: string;
  /** Where success lands. */
  next: string;
  failure: Failure | null;
  alertRef: RefObject<HTMLDivElement | null>;
  busy: boolean;
  disabled: boolean;
  emailInput: ReactNode;
  values: SignInValues;
  errors: Messages<SignInValues>;
  fieldId: (name: FieldName) => string;
  /** The new account's language (sign-up), and the choices. */
  language: string;
  languages: SelectOption[];
  onLanguage: (language: string) => void;
  set: (name: FieldName, value: string) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => unknown;
  onGoogle: () => void;
  onForgot: () => void;
  /** To the other card (sign up from sign in, and back). */
  onToggle: () => void;
}) {
  const nextNote = nextNoteFor(next);
  return (
    <>
      {heading}
      {unavailable}
      <p className="muted">
        {signIn ? t`Sign in to your ${productName} account.` : t`Join ${productName} to find trusted help at home.`}
      </p>
      {nextNote && (
        <p className="login-next" data-testid="login-next">
          {nextNote}
        </p>
      )}
      <FormAlert failure={failure} alertRef={alertRef} />
      <button type="button" className="button button-secondary button-block" onClick={onGoogle} disabled={disabled}>
        <GoogleIcon /> {t`Continue with Google`}
      </button>
      <p className="login-divider">
        <span>{t`or`}</span>
      </p>
      <form onSubmit={onSubmit} noValidate aria-busy={busy}>
        {!signIn && (
          <div className="login-names">
            <LoginInput
              id={fieldId("firstName")}
              label={t`First name`}
              type="text"
              value={values.firstName}
              onChange={(v) => set("firstName", v)}
              autoComplete="given-name"
              error={errors.firstName}
            />
            <LoginInput
              id={fieldId("lastName")}
              label={t`Last name`}
              type="text"
              value={values.lastName}
              onChange={(v) => set("lastName", v)}
              autoComplete="family-name"
              error={errors.lastName}
            />
          </div>
        )}
        {emailInput}
        <LoginInput
          id={fieldId("password")}
          label={t`Password`}
          type="password"
          value={values.password}
          onChange={(v) => set("password", v)}
          autoComplete={signIn ? "current-password" : "new-password"}
          hint={signIn ? undefined : t`At least 6 characters.`}
          error={errors.password}
        />
        {!signIn && (
          <SelectField
            id={`${fieldId("email")}-language`}
            label={t`Language / Idioma`}
            hint={t`Kindly's pages, emails and texts to you come in this language.`}
            value={language}
            onChange={(event) => onLanguage(event.target.value)}
            options={languages}
            disabled={busy}
          />
        )}
        {signIn && (
          <p className="login-forgot">
            <button type="button" className="link-button" onClick={onForgot} disabled={busy}>
              {t`Forgot password?`}
            </button>
          </p>
        )}
        <button type="submit" className="button button-primary button-block" disabled={disabled}>
          {busy ? (signIn ? t`Signing in...` : t`Creating account...`) : signIn ? t`Sign In` : t`Create Account`}
        </button>
      </form>
      <p className="login-toggle">
        {signIn ? t`Don't have an account?` : t`Already have an account?`}{" "}
        <button type="button" className="link-button" onClick={onToggle} disabled={busy}>
          {signIn ? t`Sign up` : t`Sign in`}
        </button>
      </p>
    </>
  );
}
