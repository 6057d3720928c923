// The /login cards' form schemas (spec section 8): sign in, sign up and the password reset share
// one set of values (the email typed on one card is there on the next); each card checks its
// own fields before Firebase is called. The names a sign-up sends are the server's to limit
// (accounts SessionInputSerializer, through the generated rules).
import { t } from "@lingui/core/macro";
import * as z from "zod/mini";
import { RULES } from "../rules.generated";
import { text } from "./rules";

export interface SignInValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export const invalidEmail = () => t`Please enter a valid email address.`;
export const shortPassword = () => t`Password should be at least 6 characters long.`;
const firstNameRequired = () => t`Please enter your first name.`;
const lastNameRequired = () => t`Please enter your last name.`;
const NAMES = RULES.account.NAMES;

// What the browser's type="email" accepts, roughly: something@something.tld, no spaces.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblem(email: string): string {
  const value = email.trim();
  if (!value) return t`Please enter your email address.`;
  return EMAIL_SHAPE.test(value) ? "" : invalidEmail();
}

const email = text(emailProblem);

export const signInSchema = z.object({
  email,
  password: text((v) => (v ? "" : t`Please enter your password.`)),
});

export const signUpSchema = z.object({
  firstName: text((v) => (v.trim() ? "" : firstNameRequired())),
  lastName: text((v) => (v.trim() ? "" : lastNameRequired())),
  email,
  password: text((v) => {
    if (!v) return t`Please choose a password.`;
    return v.length < 6 ? shortPassword() : "";
  }),
});

export const passwordResetSchema = z.object({ email });

/** What is wrong with the trimmed sign-up names, or "" (checked again before any account is made;
 * the server keeps at most its limit, in its words). */
export function signUpNameProblem(names: { firstName: string; lastName: string }): string {
  if (!names.firstName) return firstNameRequired();
  if (!names.lastName) return lastNameRequired();
  if (names.firstName.length > NAMES.firstName.maxLength) return NAMES.firstName.maxLengthMessage;
  if (names.lastName.length > NAMES.lastName.maxLength) return NAMES.lastName.maxLengthMessage;
  return "";
}
