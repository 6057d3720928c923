// What the care circle page's parts share: the shapes the API gives, the roles' words, and how a
// refused change is told.
import { t } from "@lingui/core/macro";
import { ApiError, errorMessage, isUnauthorizedError } from "../../lib/api";
import type { components } from "../../lib/api-schema";
import { intlLocale } from "../../lib/i18n";
import { toast } from "../../lib/toast";

export type Recipient = components["schemas"]["CareRecipient"];
export type Member = components["schemas"]["CircleMember"];
export type Invitation = components["schemas"]["CircleInvitation"];
export type Role = Member["role"];

export const CARE_CIRCLE = "/api/care-circle";

// Each language named in its own language, as the server's choices (core.languages.Language): the
// same words on every page, so a speaker finds hers (docs/glossary-es.md), never translated.
/* eslint-disable lingui/no-unlocalized-strings */
export const LANGUAGE_OPTIONS: { value: Recipient["language"]; label: string }[] = [
  { value: "en", label: "English" },
  { value: "es", label: "Español" },
];
/* eslint-enable lingui/no-unlocalized-strings */

// The roles' words are functions: read when shown, in the page's language (not when the module loads).
export const roleOptions = () => [
  { value: "member", label: t`Member` },
  { value: "organizer", label: t`Organizer` },
];
// What each role may do, as a hint under the select: inside the options it made them wider than
// a phone and the chosen one was cut off ("Organizer: also books, pa").
export const roleHint = () => t`Members see visits and messages. Organizers also book, pay and invite.`;
export const roleLabel = (role: Role): string => (role === "organizer" ? t`Organizer` : t`Member`);

export const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString(intlLocale(), { weekday: "long", month: "long", day: "numeric" });
}

/** The server's words for a failed call (a lost session is lib/query's). */
export function failure(error: unknown, title: string): string {
  if (isUnauthorizedError(error)) return "";
  const message = errorMessage(error);
  toast({ title, description: message, variant: "destructive" });
  return message;
}

export function fieldError(error: unknown, field: string): string {
  return error instanceof ApiError ? (error.fieldErrors[field]?.[0] ?? "") : "";
}
