// /login's Firebase Authentication. The SDK is a chunk of its own, loaded and started after the
// card's first paint: the card does not wait for it, nor for Google's sign-in frame that it then
// loads from apis.google.com.
import type { Auth } from "firebase/auth";
import { useEffect, useState } from "react";
import type { FirebaseWebConfig } from "../../lib/firebase-auth";

/** Firebase Authentication and the SDK's calls, once its chunk has loaded and it has started. */
export interface Firebase {
  auth: Auth;
  sdk: typeof import("../../lib/firebase-auth");
}

/** undefined until the SDK has loaded and started, null when it cannot start. */
export function useFirebaseAuth(config: FirebaseWebConfig): Firebase | null | undefined {
  const [auth, setAuth] = useState<Firebase | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    import("../../lib/firebase-auth").then(
      (sdk) => {
        const started = sdk.getFirebaseAuth(config);
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
  }, [config]);
  return auth;
}
