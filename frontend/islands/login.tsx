// /login: sign in or sign up with Firebase Authentication (email/password or Google popup),
// then hand the ID token to the server (POST /api/auth/session), which starts the Django
// session. The browser keeps no Firebase session of its own (inMemoryPersistence).
// "Forgot password?" sends Firebase's password-reset email. Failures stay in the card, next to
// the form, until the person changes something (a toast says it too).
// ?mode=signup opens the sign-up card; ?next= (checked by the server) is where success lands.
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from "react";
import type { Auth, User as FirebaseUser } from "firebase/auth";
import { Field } from "../components/Field";
import { api, errorMessage, redirectAfter } from "../lib/api";
import { useSchemaForm } from "../lib/forms";
import { toast } from "../lib/toast";
import { mountIsland } from "../lib/mount";
import {
  INVALID_EMAIL,
  passwordResetSchema,
  SHORT_PASSWORD,
  signInSchema,
  signUpSchema,
  type SignInValues,
} from "../lib/schemas/sign-in";
import "../styles/login.css";

import type { FirebaseWebConfig } from "../lib/firebase-auth";

type Mode = "sign-in" | "sign-up";
type View = Mode | "reset" | "reset-sent";

interface LoginProps {
  firebase: FirebaseWebConfig;
  /** Where success lands: a path on this site (the server checked it), "/" by default. */
  next: string;
  /** The card shown first (?mode=signup opens the sign-up card). */
  mode: Mode;
  /** The email filled in (?email=, e.g. from a care circle invitation's join link), "" for none. */
  email?: string;
  productName: string;
}

/** Firebase Authentication and the SDK's calls, once its chunk has loaded and it has started. */
interface Firebase {
  auth: Auth;
  sdk: typeof import("../lib/firebase-auth");
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

const POPUP_BLOCKED = "Popup was blocked. Please allow popups and try again.";
const TOO_MANY = "Too many attempts. Please wait a moment and try again.";
const OFFLINE = "Could not reach the sign-in service. Please check your connection.";

/** Spec section 8: the description shown for a failed Firebase call. */
export function describeAuthError(error: unknown, mode: Mode, google: boolean): string {
  const code = errorCode(error);
  if (google) {
    if (code === "auth/popup-blocked") return POPUP_BLOCKED;
    if (code === "auth/popup-closed-by-user" || code === "auth/cancelled-popup-request") {
      return mode === "sign-in" ? "Sign-in was cancelled." : "Sign-up was cancelled.";
    }
    if (code === "auth/unauthorized-domain") return "Domain not authorized for Google sign-in.";
    if (mode === "sign-up" && code === "auth/account-exists-with-different-credential") {
      return "An account already exists with this email. Try signing in instead.";
    }
  } else if (mode === "sign-up") {
    if (code === "auth/email-already-in-use") return "This email is already registered. Try signing in instead.";
    if (code === "auth/weak-password") return SHORT_PASSWORD;
    if (code === "auth/invalid-email") return INVALID_EMAIL;
  } else {
    if (
      [
        "auth/invalid-credential",
        "auth/wrong-password",
        "auth/user-not-found",
        "auth/invalid-login-credentials",
      ].includes(code)
    ) {
      return "Incorrect email or password. Please try again.";
    }
    if (code === "auth/invalid-email") return INVALID_EMAIL;
    if (code === "auth/user-disabled")
      return "This account has been disabled. To reach Kindly Support, see the contacts at the bottom of this page.";
  }
  if (code === "auth/too-many-requests") return TOO_MANY;
  if (code === "auth/network-request-failed") return OFFLINE;
  return errorMessage(error);
}

// Issue 12, item 9 (validation only): sign-up names must be more than spaces. ----------------
/** What is wrong with the trimmed sign-up names, or "" (the server keeps at most 150 characters). */
export function signUpNameProblem(names: { firstName: string; lastName: string }): string {
  if (!names.firstName) return "Please enter your first name.";
  if (!names.lastName) return "Please enter your last name.";
  if (names.firstName.length > 150) return "First name can be at most 150 characters.";
  if (names.lastName.length > 150) return "Last name can be at most 150 characters.";
  return "";
}
// -----------------------------------------------------------------------------------------------

function failureTitle(mode: Mode, google: boolean): string {
  if (google) return mode === "sign-in" ? "Google sign in failed" : "Google sign up failed";
  return mode === "sign-in" ? "Sign in failed" : "Sign up failed";
}

// ---------------------------------------------------------------- the form's values

type Values = SignInValues;
type FieldName = keyof Values;

// Display order: the first field with a message takes the focus.
const FIELDS: FieldName[] = ["firstName", "lastName", "email", "password"];
const EMPTY: Values = { firstName: "", lastName: "", email: "", password: "" };
const signUpOrIn = { "sign-in": signInSchema, "sign-up": signUpSchema } as const;

// What the page asked for, said on the card, so the person knows where signing in leads.
const NEXT_NOTES: Record<string, string> = {
  "/request-service": "Next, you'll tell us what help you need.",
  "/provider-signup": "Next, you'll fill in your application to become a provider.",
};
const JOIN_PREFIX = "/care-circle/join/";

/** What happens after signing in, when `next` leads somewhere worth saying (an invitation's join page). */
function nextNoteFor(next: string): string | undefined {
  const path = next.split("?")[0] ?? "";
  if (path.startsWith(JOIN_PREFIX)) return "Next, you'll come back to your invitation to join the care circle.";
  return NEXT_NOTES[path];
}

// ---------------------------------------------------------------- pieces

interface Failure {
  title: string;
  description: string;
}

/** The failure of the last attempt, in the card next to the form; announced when it appears. */
function FormAlert({ failure, alertRef }: { failure: Failure | null; alertRef: RefObject<HTMLDivElement | null> }) {
  return (
    <div ref={alertRef} role="alert" className="form-alert" data-testid="login-error">
      {failure && (
        <>
          <p className="form-alert-title">{failure.title}</p>
          <p className="form-alert-text">{failure.description}</p>
        </>
      )}
    </div>
  );
}

function GoogleIcon() {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 48 48" focusable="false">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}

/** A labelled input of this card: its message under it, marked required for assistive tech. */
function LoginInput(props: {
  id: string;
  label: string;
  type: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  error?: string;
  hint?: string;
  disabled?: boolean;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error} hint={props.hint}>
      {(control) => (
        <input
          {...control}
          type={props.type}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          autoComplete={props.autoComplete}
          aria-required="true"
          disabled={props.disabled}
          spellCheck={props.type === "text" ? undefined : false}
        />
      )}
    </Field>
  );
}

function resetFailureText(code: string): string {
  if (code === "auth/too-many-requests") return TOO_MANY;
  if (code === "auth/network-request-failed") return OFFLINE;
  return "We couldn't send the reset email right now. Please try again in a few minutes.";
}

// ---------------------------------------------------------------- the card

function Login({ firebase, next, mode: firstMode, email: invitedEmail = "", productName }: LoginProps) {
  const [view, setView] = useState<View>(firstMode);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [sentTo, setSentTo] = useState("");
  // The Firebase SDK is a chunk of its own, loaded and started after the card's first paint
  // (undefined until then, null when it cannot start): the card does not wait for it, nor for
  // Google's sign-in frame that it then loads from apis.google.com.
  const [auth, setAuth] = useState<Firebase | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    import("../lib/firebase-auth").then(
      (sdk) => {
        const started = sdk.getFirebaseAuth(firebase);
        if (live) setAuth(started && { auth: started, sdk });
      },
      (error: unknown) => {
        console.error("Firebase Authentication could not load", error);
        if (live) setAuth(null);
      },
    );
    return () => {
      live = false;
    };
  }, [firebase]);
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
    await api.post("/api/auth/session", { idToken, ...(names ?? {}) });
    // The Django session is the only credential from here on.
    if (auth) await auth.sdk.signOut(auth.auth).catch(() => undefined);
  }

  function succeed(welcome: Mode) {
    toast({ title: welcome === "sign-in" ? "Welcome back!" : `Welcome to ${productName}!` });
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
            form.setError("email", { type: "firebase", message: INVALID_EMAIL });
            document.getElementById(fieldId("email"))?.focus();
          } else {
            fail({ title: "Reset email not sent", description: resetFailureText(code) });
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
      label="Email"
      type="email"
      value={values.email}
      onChange={(v) => set("email", v)}
      autoComplete="email"
      error={errors.email}
    />
  );
  const unavailable = auth === null && (
    <p role="alert" className="field-error">
      Sign-in is unavailable right now. Please try again later.
    </p>
  );
  const heading = (text: string) => (
    <h1 id={headingId} ref={headingRef} tabIndex={-1}>
      {text}
    </h1>
  );

  let card;
  if (view === "reset") {
    card = (
      <>
        {heading("Reset your password")}
        {unavailable}
        <p className="muted">
          Enter the email address you use for {productName}. We'll email you a link to choose a new password.
        </p>
        <FormAlert failure={failure} alertRef={alertRef} />
        <form onSubmit={onSendReset} noValidate aria-busy={busy}>
          {emailInput}
          <button type="submit" className="button button-primary button-block" disabled={disabled}>
            {busy ? "Sending..." : "Send Reset Link"}
          </button>
        </form>
        <p className="login-toggle">
          <button type="button" className="link-button" onClick={() => go("sign-in")} disabled={busy}>
            Back to sign in
          </button>
        </p>
      </>
    );
  } else if (view === "reset-sent") {
    card = (
      <>
        {heading("Check your email")}
        <div role="status" data-testid="reset-sent">
          <p>
            If there is a {productName} account for <strong className="login-email">{sentTo}</strong>, we've sent it a
            link to choose a new password. The link works for one hour.
          </p>
        </div>
        <p className="muted">
          Nothing after a few minutes? Look in your spam or junk folder, or check the address and send it again.
        </p>
        <button type="button" className="button button-primary button-block" onClick={() => go("sign-in")}>
          Back to Sign In
        </button>
        <p className="login-toggle">
          <button type="button" className="link-button" onClick={() => go("reset")}>
            Send it again
          </button>
        </p>
      </>
    );
  } else {
    const signIn = view === "sign-in";
    const nextNote = nextNoteFor(next);
    card = (
      <>
        {heading(signIn ? "Welcome Back" : "Create Account")}
        {unavailable}
        <p className="muted">
          {signIn ? `Sign in to your ${productName} account.` : `Join ${productName} to find trusted help at home.`}
        </p>
        {nextNote && (
          <p className="login-next" data-testid="login-next">
            {nextNote}
          </p>
        )}
        <FormAlert failure={failure} alertRef={alertRef} />
        <button type="button" className="button button-secondary button-block" onClick={onGoogle} disabled={disabled}>
          <GoogleIcon /> Continue with Google
        </button>
        <p className="login-divider">
          <span>or</span>
        </p>
        <form onSubmit={onSubmit} noValidate aria-busy={busy}>
          {!signIn && (
            <div className="login-names">
              <LoginInput
                id={fieldId("firstName")}
                label="First name"
                type="text"
                value={values.firstName}
                onChange={(v) => set("firstName", v)}
                autoComplete="given-name"
                error={errors.firstName}
              />
              <LoginInput
                id={fieldId("lastName")}
                label="Last name"
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
            label="Password"
            type="password"
            value={values.password}
            onChange={(v) => set("password", v)}
            autoComplete={signIn ? "current-password" : "new-password"}
            hint={signIn ? undefined : "At least 6 characters."}
            error={errors.password}
          />
          {signIn && (
            <p className="login-forgot">
              <button type="button" className="link-button" onClick={() => go("reset")} disabled={busy}>
                Forgot password?
              </button>
            </p>
          )}
          <button type="submit" className="button button-primary button-block" disabled={disabled}>
            {busy ? (signIn ? "Signing in..." : "Creating account...") : signIn ? "Sign In" : "Create Account"}
          </button>
        </form>
        <p className="login-toggle">
          {signIn ? "Don't have an account?" : "Already have an account?"}{" "}
          <button
            type="button"
            className="link-button"
            onClick={() => go(signIn ? "sign-up" : "sign-in")}
            disabled={busy}
          >
            {signIn ? "Sign up" : "Sign in"}
          </button>
        </p>
      </>
    );
  }

  return (
    <div className="login">
      <p>
        <a href="/" className="back-link">
          <span aria-hidden="true">&larr;</span> Back to home
        </a>
      </p>
      <section className="card login-card" aria-labelledby={headingId} data-view={view}>
        {card}
      </section>
    </div>
  );
}

mountIsland(Login, "login");
