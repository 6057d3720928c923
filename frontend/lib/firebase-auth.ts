// Firebase Authentication for /login, a chunk of its own that the page loads after its first
// paint: the app with the site's web configuration, Auth with no session of its own
// (inMemoryPersistence: the Django session is the only credential) and Google's popup, pointed
// at the Auth emulator under `make run` and the tests. The SDK calls the page makes are
// re-exported from here, so nothing else on the page imports Firebase.
import { initializeApp } from "firebase/app";
import {
  browserPopupRedirectResolver,
  connectAuthEmulator,
  inMemoryPersistence,
  initializeAuth,
  type Auth,
} from "firebase/auth";

export {
  createUserWithEmailAndPassword,
  GoogleAuthProvider,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut,
  updateProfile,
} from "firebase/auth";

export interface FirebaseWebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  appId: string;
  emulatorHost: string;
}

// Named in the console only (for the people who deploy Kindly), never on a page.
/* eslint-disable lingui/no-unlocalized-strings */
const REQUIRED_CONFIG: Array<[keyof FirebaseWebConfig, string]> = [
  ["apiKey", "API key"],
  ["projectId", "project id"],
  ["appId", "app id"],
];
/* eslint-enable lingui/no-unlocalized-strings */

let firebaseAuth: Auth | null = null;

/** The Firebase Auth instance, or null when it cannot start (bad or missing configuration). */
export function getFirebaseAuth(config: FirebaseWebConfig): Auth | null {
  if (firebaseAuth) return firebaseAuth;
  const missing = REQUIRED_CONFIG.filter(([key]) => !config[key]).map(([, label]) => label);
  if (missing.length > 0) {
    console.error(`Firebase configuration is missing: ${missing.join(", ")}`);
  }
  try {
    const app = initializeApp({
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
