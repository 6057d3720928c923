// /care-circle's forms (circles.services and the circles/accounts input serializers): a person
// cared for (added or edited), an invitation by email, a member's role and an emergency contact.
// The server's limits and words; a field's first problem, as the server would answer.
import * as z from "zod/mini";
import { fill } from "../limits";
import { RULES } from "../rules.generated";
import { phoneProblem } from "./provider";
import { text } from "./rules";

export type Role = "organizer" | "member";
export const ROLES: readonly Role[] = RULES.circle.ROLES;

/** A person cared for; the address in parts (core.addresses): helpers considering a
 * request see the town and ZIP only, the booked helper the street too while the visit is on. */
export interface RecipientValues {
  firstName: string;
  lastName: string;
  street: string;
  unit: string;
  town: string;
  state: string;
  zipCode: string;
  phone: string;
  notesForHelpers: string;
}

// circles.services LIMITS and LABELS (the model's max_length), checked on the trimmed text.
export const RECIPIENT_LIMITS: Record<keyof RecipientValues, number> = RULES.circle.LIMITS;
const RECIPIENT_LABELS: Record<keyof RecipientValues, string> = RULES.circle.LABELS;

function recipientText(name: keyof RecipientValues, required = "") {
  return text((v) => {
    const value = v.trim();
    if (value.length > RECIPIENT_LIMITS[name]) {
      return fill(RULES.circle.FIELD_TOO_LONG, { label: RECIPIENT_LABELS[name], max: RECIPIENT_LIMITS[name] });
    }
    return required && !value ? required : "";
  });
}

export const recipientSchema = z.object({
  firstName: recipientText("firstName", RULES.circle.FIRST_NAME_REQUIRED),
  lastName: recipientText("lastName"),
  street: recipientText("street"),
  unit: recipientText("unit"),
  town: recipientText("town"),
  state: recipientText("state"),
  zipCode: recipientText("zipCode"),
  phone: recipientText("phone"),
  notesForHelpers: recipientText("notesForHelpers"),
});

export const EMPTY_RECIPIENT: RecipientValues = {
  firstName: "",
  lastName: "",
  street: "",
  unit: "",
  town: "",
  state: "",
  zipCode: "",
  phone: "",
  notesForHelpers: "",
};

export interface InvitationValues {
  email: string;
  role: Role;
  forRecipient: boolean;
  /** The email's language for an address with no account yet (an account's own wins). */
  language: "en" | "es";
}

export const { EMAIL_REQUIRED, EMAIL_INVALID, ROLE_INVALID } = RULES.circle;

// Django's validate_email, roughly: one @, no spaces, a dotted domain (or localhost).
const EMAIL_SHAPE = /^[^\s@]+@([^\s@.]+\.)+[^\s@.]+$|^[^\s@]+@localhost$/i;

export function invitationEmailProblem(email: string): string {
  const value = email.trim();
  if (!value) return EMAIL_REQUIRED;
  return EMAIL_SHAPE.test(value) ? "" : EMAIL_INVALID;
}

// A role as the form holds it (a choice of ROLES); anything else is refused in the server's words.
const role = text((v) => ((ROLES as readonly string[]).includes(v) ? "" : ROLE_INVALID)) as unknown as z.ZodMiniType<
  Role,
  Role
>;

export const invitationSchema = z.object({
  email: text(invitationEmailProblem),
  role,
  forRecipient: z.boolean(),
  language: z.enum(["en", "es"]),
});

/** A new invitation's values: its email in the page's language unless the inviter picks another. */
export function emptyInvitation(language: "en" | "es"): InvitationValues {
  return { email: "", role: "member", forRecipient: false, language };
}

export interface RoleValues {
  role: Role;
}

export const roleSchema = z.object({ role });

export interface ContactValues {
  name: string;
  relationship: string;
  phone: string;
}

export const EMPTY_CONTACT: ContactValues = { name: "", relationship: "", phone: "" };

// accounts EmergencyContactInputSerializer: its labels' "is required." and "can be at most"
// words (core.api), then the shared phone rule (core.validators.phone_problem).
export const CONTACT = RULES.circle.CONTACT;
type ContactField = (typeof CONTACT)[keyof typeof CONTACT];

function plain(field: ContactField, required: boolean, more: (value: string) => string = () => "") {
  return text((v) => {
    const value = v.trim();
    if (!value) return required ? field.requiredMessage : "";
    if (value.length > field.maxLength) return field.maxLengthMessage;
    return more(v);
  });
}

export const contactSchema = z.object({
  name: plain(RULES.circle.CONTACT.name, true),
  relationship: plain(RULES.circle.CONTACT.relationship, false),
  phone: plain(RULES.circle.CONTACT.phone, true, phoneProblem),
});
