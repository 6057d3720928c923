// The provider application's form schema (/provider-signup, spec sections 2, 5, 8): the spec's
// messages, and the server's limits and words from the page's `limits` props
// (providers ProviderApplicationSerializer via marketplace.api.input_limits).
import * as z from "zod/mini";
import { textTooLong, type Limits } from "../limits";
import { choices, text } from "./rules";

export interface ProviderApplicationValues {
  phone: string;
  specialties: string[];
  hourlyRate: string;
  serviceArea: string;
  bio: string;
  experience: string;
}

// The server's phone rule and words (marketplace/validators.py): digits and the usual separators.
const PHONE_CHARACTERS = /^\+?[0-9 ().-]*$/;

export function phoneProblem(phone: string): string {
  const sent = phone.trim();
  if (!PHONE_CHARACTERS.test(sent)) {
    return "Phone number can contain only digits, spaces, dashes, dots, parentheses and a leading +.";
  }
  const digits = sent.replace(/\D/g, "").length;
  if (digits < 10) return "Phone number must be at least 10 digits";
  return digits > 15 ? "Phone number can have at most 15 digits." : "";
}

export function hourlyRateProblem(value: string): string {
  const rate = Number(value);
  if (value === "" || !Number.isFinite(rate)) return "Please enter your hourly rate";
  if (rate < 15 || rate > 100) return "Hourly rate must be between $15 and $100";
  return rate % 5 === 0 ? "" : "Hourly rate must be in steps of $5";
}

/** A required text with a least length and the server's most. */
function longText(min: number, short: string, limit: Limits[string]) {
  return text((v) => (v.trim().length < min ? short : textTooLong(limit, v)));
}

export function providerApplicationSchema(limits: Limits = {}) {
  return z.object({
    phone: text(phoneProblem),
    specialties: choices((v) => (v.length > 0 ? "" : "Please select at least one specialty")),
    hourlyRate: text(hourlyRateProblem),
    serviceArea: text((v) => (v.trim() ? textTooLong(limits.serviceArea, v) : "Please enter your service area")),
    bio: longText(50, "Please provide a detailed bio (at least 50 characters)", limits.bio),
    experience: longText(20, "Please describe your experience", limits.experience),
  });
}

/** POST /api/provider/profile from the form's values. */
export function providerApplicationPayload(v: ProviderApplicationValues) {
  return {
    phone: v.phone.trim(),
    specialties: v.specialties,
    hourlyRate: Number(v.hourlyRate),
    serviceArea: v.serviceArea.trim(),
    bio: v.bio.trim(),
    experience: v.experience.trim(),
  };
}
