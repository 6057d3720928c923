// The checkout page's test-mode card form (the offline gateway, payments/api/serializers.py
// CardConfirmInputSerializer): the card number, the expiry date and the security code, each
// checked with the server's rules and words, plus the page's own "Enter ..." for an empty field.
// Stripe's Payment Element checks its own fields.
import { t } from "@lingui/core/macro";
import * as z from "zod/mini";
import { fill } from "../limits";
import { RULES } from "../rules.generated";
import { text } from "./rules";

export interface CardValues {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

export const INVALID_NUMBER = RULES.card.INVALID_NUMBER;
export const INVALID_CVC = RULES.card.CVC_INVALID;
export const { EXPIRY_UNREADABLE, EXPIRY_BAD_MONTH, EXPIRY_TOO_FAR } = RULES.card;
// Cards are issued for at most a few years; anything further away is a typing mistake.
const { EXPIRY_MAX_YEARS, NUMBER_MAX_LENGTH, SHORT_MAX_LENGTH } = RULES.card;
/** The longest expiry the server reads (its short fields' length). */
export const EXPIRY_MAX_LENGTH = SHORT_MAX_LENGTH;

/** The number as the server reads it: spaces and dashes dropped (gateways.normalize_card_number). */
const digitsOf = (value: string) => value.replace(/[\s-]/g, "");

/** 13-19 digits passing the Luhn check (gateways.card_number_is_valid). */
export function cardNumberIsValid(value: string): boolean {
  const digits = digitsOf(value.trim());
  const length = new RegExp(`^\\d{${RULES.card.CARD_MIN_DIGITS},${RULES.card.CARD_MAX_DIGITS}}$`);
  if (!length.test(digits)) return false;
  let total = 0;
  [...digits].reverse().forEach((char, index) => {
    let digit = Number(char);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    total += digit;
  });
  return total % 10 === 0;
}

export function cardNumberProblem(value: string): string {
  const number = value.trim();
  if (!number) return t`Enter your card number.`;
  return number.length > NUMBER_MAX_LENGTH || !cardNumberIsValid(number) ? INVALID_NUMBER : "";
}

// The expiry as people type it (the server reads the same spellings): "12/30", "12 / 30",
// "12-30", "1/30", "12/2030", or digits only "130", "1230", "122030".
const EXPIRY_SEPARATED = /^(\d{1,2})\s*[/\-. ]\s*(\d{2}|\d{4})$/;
const EXPIRY_DIGITS = /^(?:(\d{1,2})(\d{2})|(\d{2})(\d{4}))$/;

/** {month, year} of a typed expiry, or null when it is not a date in any of those spellings. */
export function parseExpiry(typed: string): { month: number; year: number } | null {
  const value = typed.trim();
  const separated = EXPIRY_SEPARATED.exec(value);
  const digits = separated ? null : EXPIRY_DIGITS.exec(value);
  const monthText = separated?.[1] ?? digits?.[1] ?? digits?.[3];
  const yearText = separated?.[2] ?? digits?.[2] ?? digits?.[4];
  if (!monthText || !yearText) return null;
  return { month: Number(monthText), year: Number(yearText) + (yearText.length === 2 ? 2000 : 0) };
}

function twoDigits(n: number): string {
  return String(n % 100).padStart(2, "0");
}

/** The message for a typed expiry, "" when it can be sent: a card is good until the end of the
 * month printed on it (`now`: today, by the browser's clock). */
export function expiryProblem(typed: string, now: Date = new Date()): string {
  if (!typed.trim()) return t`Enter the expiry date (MM / YY).`;
  if (typed.trim().length > SHORT_MAX_LENGTH) return EXPIRY_UNREADABLE;
  const parsed = parseExpiry(typed);
  if (!parsed) return EXPIRY_UNREADABLE;
  const { month, year } = parsed;
  if (month < 1 || month > 12) return EXPIRY_BAD_MONTH;
  if (year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1) {
    return fill(RULES.card.EXPIRED, { printed: `${twoDigits(month)} / ${twoDigits(year)}` });
  }
  return year > now.getFullYear() + EXPIRY_MAX_YEARS ? EXPIRY_TOO_FAR : "";
}

/** "1230" -> "12 / 30" once the field is left, so the person sees how it was read. */
export function tidyExpiry(typed: string): string {
  const parsed = parseExpiry(typed);
  if (!parsed || parsed.month < 1 || parsed.month > 12) return typed;
  return `${twoDigits(parsed.month)} / ${twoDigits(parsed.year)}`;
}

const CVC_SHAPE = new RegExp(`^\\d{${RULES.card.CVC_MIN_DIGITS},${RULES.card.CVC_MAX_DIGITS}}$`);

export function cvcProblem(value: string): string {
  const code = value.trim();
  if (!code) return t`Enter the security code.`;
  return CVC_SHAPE.test(code) ? "" : INVALID_CVC;
}

export const cardSchema = z.object({
  cardNumber: text(cardNumberProblem),
  expiry: text((value) => expiryProblem(value)),
  cvc: text(cvcProblem),
});
