// The provider application's form schema (/provider-signup, spec sections 2, 5, 8): the spec's
// messages, and the server's limits and words from the page's `limits` props
// (providers ProviderApplicationSerializer via core.api.input_limits).
import * as z from "zod/mini";
import { textTooLong, type Limits } from "../limits";
import { RULES } from "../rules.generated";
import { choices, text } from "./rules";

export interface ProviderApplicationValues {
  phone: string;
  specialties: string[];
  /** The languages she speaks, codes ("en", "es"). */
  languages: string[];
  hourlyRate: string;
  serviceArea: string;
  homeZip: string;
  travelMiles: string;
  bio: string;
  experience: string;
}

/** Where a provider helps (PATCH /api/provider/profile). */
export interface ProviderAreaValues {
  homeZip: string;
  travelMiles: string;
}

// The server's phone rule and words (core/validators.py): digits and the usual separators.
const PHONE_CHARACTERS = new RegExp(`^(?:${RULES.phone.PHONE_PATTERN})$`);

export function phoneProblem(phone: string): string {
  const sent = phone.trim();
  if (!PHONE_CHARACTERS.test(sent)) return RULES.phone.PHONE_CHARACTERS;
  const digits = sent.replace(/\D/g, "").length;
  if (digits < RULES.phone.PHONE_MIN_DIGITS) return RULES.phone.PHONE_TOO_SHORT;
  return digits > RULES.phone.PHONE_MAX_DIGITS ? RULES.phone.PHONE_TOO_LONG : "";
}

const P = RULES.provider;
/** The hourly rate's range and step (providers.services). */
export const { RATE_MIN, RATE_MAX, RATE_STEP } = P;

export function hourlyRateProblem(value: string): string {
  const rate = Number(value);
  if (value === "" || !Number.isFinite(rate)) return P.RATE_REQUIRED;
  if (rate < P.RATE_MIN || rate > P.RATE_MAX) return P.RATE_OUT_OF_RANGE;
  return rate % P.RATE_STEP === 0 ? "" : P.RATE_NOT_IN_STEPS;
}

const Z = RULES.zip;
const US_ZIP = new RegExp(`^(?:${Z.PATTERN})$`);

/** The shape of a US ZIP code (which codes exist, only the server knows: it answers a 400). */
export function zipProblem(value: string): string {
  const sent = value.trim();
  if (!sent) return Z.ZIP_REQUIRED;
  return US_ZIP.test(sent) ? "" : Z.ZIP_NOT_US;
}

/** How far she travels: whole miles, 1 to 100. */
export function travelMilesProblem(value: string): string {
  if (value === "") return P.TRAVEL_REQUIRED;
  const miles = Number(value);
  return Number.isInteger(miles) && miles >= P.TRAVEL_MILES_MIN && miles <= P.TRAVEL_MILES_MAX
    ? ""
    : P.TRAVEL_OUT_OF_RANGE;
}

/** The distances the forms offer (the server takes any whole number of miles from 1 to 100). */
export const TRAVEL_CHOICES = [5, 10, 15, 20, 25, 30, 40, 50, 75, 100].filter(
  (miles) => miles >= P.TRAVEL_MILES_MIN && miles <= P.TRAVEL_MILES_MAX,
);
export const TRAVEL_DEFAULT = String(P.TRAVEL_MILES_DEFAULT);

/** A required text with a least length and the server's most. */
function longText(min: number, short: string, limit: Limits[string]) {
  return text((v) => (v.trim().length < min ? short : textTooLong(limit, v)));
}

export function providerApplicationSchema(limits: Limits = {}) {
  return z.object({
    phone: text(phoneProblem),
    specialties: choices((v) => (v.length > 0 ? "" : P.SPECIALTIES_REQUIRED)),
    languages: choices((v) => (v.length > 0 ? "" : P.LANGUAGES_REQUIRED)),
    hourlyRate: text(hourlyRateProblem),
    serviceArea: text((v) => (v.trim() ? textTooLong(limits.serviceArea, v) : P.SERVICE_AREA_REQUIRED)),
    homeZip: text(zipProblem),
    travelMiles: text(travelMilesProblem),
    bio: longText(P.BIO_MIN, P.BIO_TOO_SHORT, limits.bio),
    experience: longText(P.EXPERIENCE_MIN, P.EXPERIENCE_TOO_SHORT, limits.experience),
  });
}

/** POST /api/provider/profile from the form's values. */
export function providerApplicationPayload(v: ProviderApplicationValues) {
  return {
    phone: v.phone.trim(),
    specialties: v.specialties,
    languages: v.languages,
    hourlyRate: Number(v.hourlyRate),
    serviceArea: v.serviceArea.trim(),
    homeZip: v.homeZip.trim(),
    travelMiles: Number(v.travelMiles),
    bio: v.bio.trim(),
    experience: v.experience.trim(),
  };
}

export const providerAreaSchema = z.object({ homeZip: text(zipProblem), travelMiles: text(travelMilesProblem) });

/** PATCH /api/provider/profile from the "Where you help" form. */
export function providerAreaPayload(v: ProviderAreaValues) {
  return { homeZip: v.homeZip.trim(), travelMiles: Number(v.travelMiles) };
}
