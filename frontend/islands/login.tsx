// /login: sign in or sign up with Firebase Authentication (email/password or Google popup),
// then hand the ID token to the server (POST /api/auth/session), which starts the Django
// session. The browser keeps no Firebase session of its own (inMemoryPersistence).
import { useId, useMemo, useState, type FormEvent } from "react";
import { initializeApp, type FirebaseApp } from "firebase/app";
import {
  browserPopupRedirectResolver,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  GoogleAuthProvider,
  inMemoryPersistence,
  initializeAuth,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut,
  updateProfile,
  type Auth,
  type User as FirebaseUser,
} from "firebase/auth";
import { api, errorMessage, redirectAfter } from "../lib/api";
import { toast } from "../lib/toast";
import { mountIsland } from "../lib/mount";
import "../styles/login.css";

interface FirebaseWebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  appId: string;
  emulatorHost: string;
}

interface LoginProps {
  firebase: FirebaseWebConfig;
  next: string;
  productName: string;
}

type Mode = "sign-in" | "sign-up";

const REQUIRED_CONFIG: Array<[keyof FirebaseWebConfig, string]> = [
  ["apiKey", "API key"],
  ["projectId", "project id"],
  ["appId", "app id"],
];

let firebaseAuth: Auth | null = null;

/** The Firebase Auth instance, or null when it cannot start (bad or missing configuration). */
function getFirebaseAuth(config: FirebaseWebConfig): Auth | null {
  if (firebaseAuth) return firebaseAuth;
  const missing = REQUIRED_CONFIG.filter(([key]) => !config[key]).map(([, label]) => label);
  if (missing.length > 0) {
    console.error(`Firebase configuration is missing: ${missing.join(", ")}`);
  }
  try {
    const app: FirebaseApp = initializeApp({
      apiKey: config.apiKey,
      authDomain: config.authDomain,
      projectId: config.projectId,
      appId: config.appId,
    });
    const auth = initializeAuth(app, {
      persistence: inMemoryPersistence,
      popupRedirectResolver: browserPopupRedirectResolver,
    });
    if (config.emulatorHost) {
      connectAuthEmulator(auth, `http://${config.emulatorHost}`, { disableWarnings: true });
    }
    firebaseAuth = auth;
    return auth;
  } catch (error) {
    console.error("Firebase Authentication could not start", error);
    return null;
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

const POPUP_BLOCKED = "Popup was blocked. Please allow popups and try again.";

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
    if (code === "auth/weak-password") return "Password should be at least 6 characters long.";
    if (code === "auth/invalid-email") return "Please enter a valid email address.";
  } else {
    if (["auth/invalid-credential", "auth/wrong-password", "auth/user-not-found", "auth/invalid-login-credentials"].includes(code)) {
      return "Incorrect email or password. Please try again.";
    }
    if (code === "auth/invalid-email") return "Please enter a valid email address.";
    if (code === "auth/user-disabled") return "This account has been disabled. Please contact support.";
  }
  if (code === "auth/too-many-requests") return "Too many attempts. Please wait a moment and try again.";
  if (code === "auth/network-request-failed") return "Could not reach the sign-in service. Please check your connection.";
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

function GoogleIcon() {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 48 48" focusable="false">
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}

function Field(props: {
  label: string;
  type: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  minLength?: number;
  hint?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type={props.type}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        autoComplete={props.autoComplete}
        minLength={props.minLength}
        aria-describedby={props.hint ? hintId : undefined}
        required
      />
      {props.hint && (
        <p id={hintId} className="muted field-hint">
          {props.hint}
        </p>
      )}
    </div>
  );
}

function Login({ firebase, next, productName }: LoginProps) {
  const [mode, setMode] = useState<Mode>("sign-in");
  const [busy, setBusy] = useState(false);
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const auth = useMemo(() => getFirebaseAuth(firebase), [firebase]);
  const headingId = useId();

  async function startSession(user: FirebaseUser, names?: { firstName: string; lastName: string }) {
    const idToken = await user.getIdToken();
    await api.post("/api/auth/session", { idToken, ...(names ?? {}) });
    // The Django session is the only credential from here on.
    if (auth) await signOut(auth).catch(() => undefined);
  }

  function succeed(welcome: "sign-in" | "sign-up") {
    toast({ title: welcome === "sign-in" ? "Welcome back!" : `Welcome to ${productName}!` });
    redirectAfter(next || "/", 1000);
  }

  async function run(google: boolean, action: (auth: Auth) => Promise<"sign-in" | "sign-up">) {
    if (!auth) return;
    setBusy(true);
    try {
      succeed(await action(auth));
    } catch (error) {
      console.error(error);
      toast({ title: failureTitle(mode, google), description: describeAuthError(error, mode, google), variant: "destructive" });
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (mode === "sign-in") {
      void run(false, async (auth) => {
        const credential = await signInWithEmailAndPassword(auth, email.trim(), password);
        await startSession(credential.user);
        return "sign-in";
      });
    } else {
      void run(false, async (auth) => {
        const names = { firstName: firstName.trim(), lastName: lastName.trim() };
        const nameProblem = signUpNameProblem(names); // before any account is made
        if (nameProblem) throw new Error(nameProblem);
        const credential = await createUserWithEmailAndPassword(auth, email.trim(), password);
        await updateProfile(credential.user, { displayName: `${names.firstName} ${names.lastName}`.trim() });
        await startSession(credential.user, names);
        return "sign-up";
      });
    }
  }

  function onGoogle() {
    if (busy) return;
    void run(true, async (auth) => {
      const provider = new GoogleAuthProvider();
      provider.addScope("profile");
      provider.addScope("email");
      const credential = await signInWithPopup(auth, provider);
      await startSession(credential.user);
      return mode;
    });
  }

  const signIn = mode === "sign-in";
  const disabled = busy || !auth;
  return (
    <div className="login">
      <p>
        <a href="/" className="back-link">
          <span aria-hidden="true">&larr;</span> Back to home
        </a>
      </p>
      <section className="card login-card" aria-labelledby={headingId}>
        <h1 id={headingId}>{signIn ? "Welcome Back" : "Create Account"}</h1>
        {!auth && (
          <p role="alert" className="field-error">
            Sign-in is unavailable right now. Please try again later.
          </p>
        )}
        <p className="muted">
          {signIn ? `Sign in to your ${productName} account.` : `Join ${productName} to find trusted help at home.`}
        </p>
        <button type="button" className="button button-secondary button-block" onClick={onGoogle} disabled={disabled}>
          <GoogleIcon /> Continue with Google
        </button>
        <p className="login-divider">
          <span>or</span>
        </p>
        <form onSubmit={onSubmit} noValidate={false} aria-busy={busy}>
          {!signIn && (
            <div className="login-names">
              <Field label="First name" type="text" value={firstName} onChange={setFirstName} autoComplete="given-name" />
              <Field label="Last name" type="text" value={lastName} onChange={setLastName} autoComplete="family-name" />
            </div>
          )}
          <Field label="Email" type="email" value={email} onChange={setEmail} autoComplete="email" />
          <Field
            label="Password"
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete={signIn ? "current-password" : "new-password"}
            minLength={signIn ? undefined : 6}
            hint={signIn ? undefined : "At least 6 characters."}
          />
          <button type="submit" className="button button-primary button-block" disabled={disabled}>
            {busy ? (signIn ? "Signing in..." : "Creating account...") : signIn ? "Sign In" : "Create Account"}
          </button>
        </form>
        <p className="login-toggle">
          {signIn ? "Don't have an account?" : "Already have an account?"}{" "}
          <button type="button" className="link-button" onClick={() => setMode(signIn ? "sign-up" : "sign-in")} disabled={busy}>
            {signIn ? "Sign up" : "Sign in"}
          </button>
        </p>
      </section>
    </div>
  );
}

mountIsland(Login, "login-root", "login-props");
