// "Accept" on an open request (POST /api/service-requests/{id}/accept), the one way both pages do
// it: the dashboard's list of requests asked of a helper and the request's own page. Spec section 8:
// success says "Service request accepted! You can now contact the client."; a refusal the helper
// can act on (403: not verified yet; 409: already taken, or dates of a series she cannot make) is
// shown as the server words it, anything else as "Failed to accept service request. Please try
// again."; a lost session is lib/query's.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { ApiError, errorMessage, isUnauthorizedError } from "./api";
import { useApiWrite, type SessionMeta } from "./query";
import { toast } from "./toast";

export const accepted = () => t`Service request accepted! You can now contact the client.`;
export const acceptedWithoutDates = () =>
  t`Series accepted without the dates you cannot make; the family is told. You can now contact the client.`;
export const acceptFailed = () => t`Failed to accept service request. Please try again.`;

/** How an accept ended: accepted, refused by the server (its status), or failed otherwise. */
export type AcceptOutcome = { accepted: true } | { accepted: false; status: number | null };

/** The message for a failed accept. */
export function acceptFailure(error: unknown): string {
  const known = error instanceof ApiError && (error.status === 400 || error.status === 403 || error.status === 409);
  return known ? errorMessage(error) : acceptFailed();
}

export function useAcceptRequest({
  meta,
  onSettled,
}: {
  /** The page's lost-session handling (the dashboard signs in again through /api/login). */
  meta?: SessionMeta;
  /** After the answer (not after a lost session): the page reads what changed. */
  onSettled?: (outcome: AcceptOutcome) => unknown;
} = {}) {
  const { post } = useApiWrite([], meta);
  /** The request being accepted, or null. */
  const [accepting, setAccepting] = useState<number | null>(null);
  /** The last failure's message, "" after a success or before any try. */
  const [error, setError] = useState("");
  /** The dates of a series she cannot make (the accept's 409): she may accept the rest without them. */
  const [unavailable, setUnavailable] = useState<string[]>([]);

  /** `arrivalTime` ("14:00"): when she will arrive, one of the request's arrivalChoices (left out:
   * the window's start; a time outside the window is the server's 400, shown as it words it). */
  async function accept(
    requestId: number,
    { skipUnavailable = false, arrivalTime = "" }: { skipUnavailable?: boolean; arrivalTime?: string } = {},
  ) {
    setAccepting(requestId);
    setError("");
    setUnavailable([]);
    let outcome: AcceptOutcome;
    try {
      const body: { skipUnavailable?: boolean; arrivalTime?: string } = {};
      if (skipUnavailable) body.skipUnavailable = true;
      if (arrivalTime) body.arrivalTime = arrivalTime;
      await post(`/api/service-requests/${requestId}/accept`, body);
      toast({ title: t`Success`, description: skipUnavailable ? acceptedWithoutDates() : accepted() });
      outcome = { accepted: true };
    } catch (failure) {
      if (isUnauthorizedError(failure)) {
        setAccepting(null);
        return;
      }
      const message = acceptFailure(failure);
      setError(message);
      if (failure instanceof ApiError) setUnavailable(failure.fieldErrors.unavailableDates ?? []);
      toast({ title: t`Error`, description: message, variant: "destructive" });
      outcome = { accepted: false, status: failure instanceof ApiError ? failure.status : null };
    }
    try {
      await onSettled?.(outcome);
    } finally {
      setAccepting(null);
    }
  }

  return { accept, accepting, error, unavailable };
}
