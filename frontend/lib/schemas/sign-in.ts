// The /login cards' form schemas (spec section 8): sign in, sign up and the password reset share
// one set of values (the email typed on one card is there on the next); each card checks its
// own fields before Firebase is called.
import * as z from "zod/mini";
import { text } from "./rules";

export interface SignInValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export const INVALID_EMAIL = "Please enter a valid email address.";
export const SHORT_PASSWORD = "Password should be at least 6 characters long.";

// What the browser's type="email" accepts, roughly: something@something.tld, no spaces.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblem(email: string): string {
  const value = email.trim();
  if (!value) return "Please enter your email address.";
  return EMAIL_SHAPE.test(value) ? "" : INVALID_EMAIL;
}

const email = text(emailProblem);

export const signInSchema = z.object({
  email,
  password: text((v) => (v ? "" : "Please enter your password.")),
});

export const signUpSchema = z.object({
  firstName: text((v) => (v.trim() ? "" : "Please enter your first name.")),
  lastName: text((v) => (v.trim() ? "" : "Please enter your last name.")),
  email,
  password: text((v) => {
    if (!v) return "Please choose a password.";
    return v.length < 6 ? SHORT_PASSWORD : "";
  }),
});

export const passwordResetSchema = z.object({ email });
