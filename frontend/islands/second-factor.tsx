// /second-factor: the staff second step (accounts/second_factor_views.py). The page is server
// rendered: its authenticator-app and recovery-code forms are plain HTML forms; this island is the
// passkey button only.
import { PasskeyStep } from "../components/PasskeyStep";
import { mountIsland } from "../lib/mount";

mountIsland(PasskeyStep, "second-factor");
