// /login: sign in or sign up with Firebase Authentication (email/password or Google popup),
// then hand the ID token to the server (POST /api/auth/session), which starts the Django
// session. The browser keeps no Firebase session of its own (inMemoryPersistence).
// "Forgot password?" sends Firebase's password-reset email. Failures stay in the card, next to
// the form, until the person changes something (a toast says it too).
// ?mode=signup opens the sign-up card; ?next= (checked by the server) is where success lands.
import { t } from "@lingui/core/macro";
import type { User as FirebaseUser } from "firebase/auth";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { api, redirectAfter } from "../../lib/api";
import type { FirebaseWebConfig } from "../../lib/firebase-auth";
import type { SelectOption } from "../../components/Field";
import { useSchemaForm } from "../../lib/forms";
import {
  invalidEmail,
  passwordResetSchema,
  signInSchema,
  signUpNameProblem,
  signUpSchema,
  type SignInValues,
} from "../../lib/schemas/sign-in";
import { toast } from "../../lib/toast";
import { describeAuthError, errorCode, failureTitle, resetFailureText, type Mode } from "./authErrors";
import { LoginInput, type Failure } from "./LoginParts";
import { ResetCard, ResetSentCard } from "./ResetCards";
import { SignInCard } from "./SignInCard";
import { useFirebaseAuth, type Firebase } from "./useFirebaseAuth";
import "../../styles/login.css";

type View = Mode | "reset" | "reset-sent";

export interface LoginProps {
  firebase: FirebaseWebConfig;
  /** Where success lands: a path on this site (the server checked it), "/" by default. */
  next: string;
  /** The card shown first (?mode=signup opens the sign-up card). */
  mode: Mode;
  /** The email filled in (?email=, e.g. from a care circle invitation's join link), "" for none. */
  email?: string;
  productName: string;
  /** The sign-up card's language, first the browser's ("en" or "es"): the new account's language. */
  language: string;
  /** The languages Kindly speaks, each named in its own language. */
  languages: SelectOption[];
}

type Values = SignInValues;
type FieldName = keyof Values;

// Display order: the first field with a message takes the focus.
const FIELDS: FieldName[] = ["firstName", "lastName", "email", "password"];
const EMPTY: Values = { firstName: "", lastName: "", email: "", password: "" };
const signUpOrIn = { "sign-in": signInSchema, "sign-up": signUpSchema } as const;

export function Login({
  firebase,
  next,
  mode: firstMode,
  email: invitedEmail = "",
  productName,
  language: browserLanguage,
  languages,
}: LoginProps) {
  const [view, setView] = useState<View>(firstMode);
  // Sent with every sign-in: the server keeps it only for a new account (a later sign-in changes nothing).
  const [language, setLanguage] = useState(browserLanguage);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [sentTo, setSentTo] = useState("");
  // undefined until the Firebase SDK has loaded and started (after the first paint), null when it cannot.
  const auth = useFirebaseAuth(firebase);
  const uid = useId();
  const headingId = `${uid}-heading`;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  // Set when the person moved to another card: its heading then takes the focus (the button
  // they pressed is gone). Not on the first render: the page opens with the focus at its top.
  const moved = useRef(false);
  const mode: Mode = view === "sign-up" ? "sign-up" : "sign-in";
  const fieldId = (name: FieldName) => `${uid}-${name}`;
  // A change takes its field's message away; the next submit says what is still wrong.
  const {
    values,
    errors,
    form,
    handleSubmit,
    set: setField,
    showServerErrors,
  } = useSchemaForm({
    schema: view === "reset" || view === "reset-sent" ? passwordResetSchema : signUpOrIn[mode],
    defaultValues: invitedEmail ? { ...EMPTY, email: invitedEmail } : EMPTY,
    fields: FIELDS,
    fieldId,
    onChange: "clear",
  });

  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [view]);

  function go(to: View) {
    moved.current = true;
    setView(to);
    form.clearErrors();
    setFailure(null);
  }

  /** A change drops that field's message and the failure of the last attempt. */
  function set(name: FieldName, value: string) {
    setField(name, value);
    setFailure(null);
  }

  function fail(shown: Failure) {
    setFailure(shown);
    toast({ title: shown.title, description: shown.description, variant: "destructive" });
    window.requestAnimationFrame(() => alertRef.current?.scrollIntoView?.({ block: "nearest" }));
  }

  async function startSession(user: FirebaseUser, names?: { firstName: string; lastName: string }) {
    const idToken = await user.getIdToken();
    await api.post("/api/auth/session", { idToken, language, ...(names ?? {}) });
    // The Django session is the only credential from here on.
    if (auth) await auth.sdk.signOut(auth.auth).catch(() => undefined);
  }

  function succeed(welcome: Mode) {
    toast({ title: welcome === "sign-in" ? t`Welcome back!` : t`Welcome to ${productName}!` });
    redirectAfter(next || "/", 1000);
  }

  async function run(google: boolean, action: (firebase: Firebase) => Promise<Mode>) {
    if (!auth) return;
    setBusy(true);
    setFailure(null);
    try {
      succeed(await action(auth));
    } catch (error) {
      console.error(error);
      showServerErrors(error);
      fail({ title: failureTitle(mode, google), description: describeAuthError(error, mode, google) });
      setBusy(false);
    }
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    handleSubmit((checked) => {
      if (busy) return;
      const email = checked.email.trim();
      if (mode === "sign-in") {
        void run(false, async ({ auth, sdk }) => {
          const credential = await sdk.signInWithEmailAndPassword(auth, email, checked.password);
          await startSession(credential.user);
          return "sign-in";
        });
      } else {
        void run(false, async ({ auth, sdk }) => {
          const names = { firstName: checked.firstName.trim(), lastName: checked.lastName.trim() };
          const nameProblem = signUpNameProblem(names); // before any account is made
          if (nameProblem) throw new Error(nameProblem);
          const credential = await sdk.createUserWithEmailAndPassword(auth, email, checked.password);
          await sdk.updateProfile(credential.user, { displayName: `${names.firstName} ${names.lastName}`.trim() });
          await startSession(credential.user, names);
          return "sign-up";
        });
      }
    })(event);

  function onGoogle() {
    if (busy) return;
    void run(true, async ({ auth, sdk }) => {
      const provider = new sdk.GoogleAuthProvider();
      provider.addScope("profile");
      provider.addScope("email");
      const credential = await sdk.signInWithPopup(auth, provider);
      await startSession(credential.user);
      return mode;
    });
  }

  const onSendReset = (event: FormEvent<HTMLFormElement>) =>
    handleSubmit(async (checked) => {
      if (busy || !auth) return;
      const email = checked.email.trim();
      setBusy(true);
      setFailure(null);
      try {
        await auth.sdk.sendPasswordResetEmail(auth.auth, email);
      } catch (error) {
        const code = errorCode(error);
        // "No such account" would tell anyone which addresses have one: it reads as sent.
        if (code !== "auth/user-not-found") {
          console.error(error);
          setBusy(false);
          if (code === "auth/invalid-email" || code === "auth/missing-email") {
            form.setError("email", { type: "firebase", message: invalidEmail() });
            document.getElementById(fieldId("email"))?.focus();
          } else {
            fail({ title: t`Reset email not sent`, description: resetFailureText(code) });
          }
          return;
        }
      }
      setBusy(false);
      setSentTo(email);
      go("reset-sent");
    })(event);

  const disabled = busy || !auth;
  const emailInput = (
    <LoginInput
      id={fieldId("email")}
      label={t`Email`}
      type="email"
      value={values.email}
      onChange={(v) => set("email", v)}
      autoComplete="email"
      error={errors.email}
    />
  );
  const unavailable = auth === null && (
    <p role="alert" className="field-error">
      {t`Sign-in is unavailable right now. Please try again later.`}
    </p>
  );
  const heading = (text: string) => (
    <h1 id={headingId} ref={headingRef} tabIndex={-1}>
      {text}
    </h1>
  );

  const signIn = view === "sign-in";
  return (
    <div className="login">
      <p>
        <a href="/" className="back-link">
          <span aria-hidden="true">&larr;</span> {t`Back to home`}
        </a>
      </p>
      <section className="card login-card" aria-labelledby={headingId} data-view={view}>
        {view === "reset" ? (
          <ResetCard
            heading={heading(t`Reset your password`)}
            unavailable={unavailable}
            productName={productName}
            failure={failure}
            alertRef={alertRef}
            busy={busy}
            disabled={disabled}
            emailInput={emailInput}
            onSend={onSendReset}
            onBack={() => go("sign-in")}
          />
        ) : view === "reset-sent" ? (
          <ResetSentCard
            heading={heading(t`Check your email`)}
            productName={productName}
            sentTo={sentTo}
            onBack={() => go("sign-in")}
            onSendAgain={() => go("reset")}
          />
        ) : (
          <SignInCard
            signIn={signIn}
            heading={heading(signIn ? t`Welcome Back` : t`Create Account`)}
            unavailable={unavailable}
            productName={productName}
            next={next}
            failure={failure}
            alertRef={alertRef}
            busy={busy}
            disabled={disabled}
            emailInput={emailInput}
            values={values}
            errors={errors}
            fieldId={fieldId}
            language={language}
            languages={languages}
            onLanguage={setLanguage}
            set={set}
            onSubmit={onSubmit}
            onGoogle={onGoogle}
            onForgot={() => go("reset")}
            onToggle={() => go(signIn ? "sign-up" : "sign-in")}
          />
        )}
      </section>
    </div>
  );
}
