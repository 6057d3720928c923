import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import {
  noPasskeysInBrowser,
  passkeyAlreadyHere,
  passkeyCancelled,
  passkeyNotHere,
  PasskeyStep,
  passkeyProblem,
} from "./PasskeyStep";
import { ApiError, genericFailure } from "../lib/api";

const PROPS = {
  mode: "verify" as const,
  beginUrl: "/second-factor/passkey/verify/begin",
  completeUrl: "/second-factor/passkey/verify/complete",
  doneUrl: "/admin",
};

describe("PasskeyStep", () => {
  it("says so in a browser without passkeys, leaving the other ways on the page", () => {
    vi.stubGlobal("PublicKeyCredential", undefined);
    render(<PasskeyStep {...PROPS} />);
    expect(screen.getByText(noPasskeysInBrowser())).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("shows the server's refusal in words, announced, with the button back and focused", async () => {
    // A browser that has WebAuthn; the server refuses before any prompt (a session that is gone).
    vi.stubGlobal("PublicKeyCredential", class {});
    const refusal = JSON.stringify({ message: "Please sign in again.", errors: {} });
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(refusal, { status: 403, headers: { "Content-Type": "application/json" } })),
    );
    vi.stubGlobal("fetch", fetchMock);
    render(<PasskeyStep {...PROPS} />);

    fireEvent.click(screen.getByRole("button", { name: "Use my passkey" }));

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("Please sign in again.");
    const button = screen.getByRole("button", { name: "Use my passkey" });
    expect(button.hasAttribute("disabled")).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(button.getAttribute("aria-describedby")).toBe(alert.id);
    expect(fetchMock).toHaveBeenCalledWith(PROPS.beginUrl, expect.objectContaining({ method: "POST" }));
  });
});

describe("passkeyProblem", () => {
  it("names what the browser's prompt reported in plain words", () => {
    expect(passkeyProblem(new DOMException("timed out", "NotAllowedError"))).toBe(passkeyCancelled());
    expect(passkeyProblem(new DOMException("aborted", "AbortError"))).toBe(passkeyCancelled());
    expect(passkeyProblem(new DOMException("excluded", "InvalidStateError"))).toBe(passkeyAlreadyHere());
    expect(passkeyProblem(new DOMException("bad rp", "SecurityError"))).toBe(passkeyNotHere());
  });

  it("shows the server's own message, and a calm one for anything else", () => {
    const body = { message: "This passkey belongs to another account. Try another passkey.", errors: {} };
    expect(passkeyProblem(new ApiError(403, "403", body, true))).toBe(body.message);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(passkeyProblem(new Error("boom"))).toBe(genericFailure());
  });
});
