// The provider's "Decline" dialog on a request sent to them (requests_app.services
// decline_reason_problem: a reason is required, at most 500 characters once trimmed), and her
// "Not for me" on a request offered to her (requests_app.services.offer_decline: a reason if she
// likes, at most as long).
import * as z from "zod/mini";
import { RULES } from "../rules.generated";
import { text } from "./rules";

export const { DECLINE_REASON_MAX, DECLINE_REASON_REQUIRED, DECLINE_REASON_TOO_LONG } = RULES.decline;

export interface DeclineValues {
  reason: string;
}

export function declineReasonProblem(reason: string): string {
  const value = reason.trim();
  if (!value) return DECLINE_REASON_REQUIRED;
  return value.length > DECLINE_REASON_MAX ? DECLINE_REASON_TOO_LONG : "";
}

export const declineSchema = z.object({ reason: text(declineReasonProblem) });

/** "Not for me": the reason may be left empty. */
export function notForMeReasonProblem(reason: string): string {
  return reason.trim().length > DECLINE_REASON_MAX ? DECLINE_REASON_TOO_LONG : "";
}

export const notForMeSchema = z.object({ reason: text(notForMeReasonProblem) });
