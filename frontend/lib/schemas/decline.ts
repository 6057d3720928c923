// The provider's "Decline" dialog on a request sent to them (requests_app.services
// decline_reason_problem: a reason is required, at most 500 characters once trimmed).
import * as z from "zod/mini";
import { text } from "./rules";

export const DECLINE_REASON_MAX = 500;
export const DECLINE_REASON_REQUIRED = "Please say why you cannot take this request.";
export const DECLINE_REASON_TOO_LONG = `The reason can be at most ${DECLINE_REASON_MAX} characters.`;

export interface DeclineValues {
  reason: string;
}

export function declineReasonProblem(reason: string): string {
  const value = reason.trim();
  if (!value) return DECLINE_REASON_REQUIRED;
  return value.length > DECLINE_REASON_MAX ? DECLINE_REASON_TOO_LONG : "";
}

export const declineSchema = z.object({ reason: text(declineReasonProblem) });
