// Sign-in page island (being built): Firebase sign-in, then POST /api/auth/session.
import { mountIsland } from "../lib/mount";

function Login() {
  return <p>Loading sign-in...</p>;
}

mountIsland(Login, "login-root", "login-props");
