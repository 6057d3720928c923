import { describe, expect, it } from "vitest";
import { problems } from "./testing";
import { providerApplicationPayload, providerApplicationSchema, type ProviderApplicationValues } from "./provider";
import { passwordResetSchema, signInSchema, signUpSchema } from "./sign-in";

const APPLICATION: ProviderApplicationValues = {
  phone: "(555) 123-4567",
  specialties: ["tech-support"],
  languages: ["en", "es"],
  hourlyRate: "25",
  serviceArea: "Springfield",
  homeZip: "62704",
  travelMiles: "15",
  bio: "I have helped older neighbours with phones, tablets and computers for years.",
  experience: "Five years of volunteering at the library.",
};

describe("providerApplicationSchema", () => {
  const check = (changes: Partial<ProviderApplicationValues>, limits = {}) =>
    problems(providerApplicationSchema(limits), { ...APPLICATION, ...changes });

  it("accepts a complete application", () => {
    expect(check({})).toEqual({});
  });

  it("asks for at least one language, in the server's words", () => {
    expect(check({ languages: [] })).toEqual({ languages: "Choose at least one language you speak." });
  });

  it("says the spec's messages", () => {
    expect(
      check({ phone: "555-1234", specialties: [], hourlyRate: "", serviceArea: " ", bio: "Short", experience: "" }),
    ).toEqual({
      phone: "Phone number must be at least 10 digits",
      specialties: "Please select at least one specialty",
      hourlyRate: "Please enter your hourly rate",
      serviceArea: "Please enter your service area",
      bio: "Please provide a detailed bio (at least 50 characters)",
      experience: "Please describe your experience",
    });
    expect(check({ hourlyRate: "10" })).toEqual({ hourlyRate: "Hourly rate must be between $15 and $100" });
    expect(check({ hourlyRate: "22" })).toEqual({ hourlyRate: "Hourly rate must be a multiple of $5" });
    expect(check({ homeZip: "", travelMiles: "" })).toEqual({
      homeZip: "Please enter your ZIP code.",
      travelMiles: "Please choose how far you can travel.",
    });
    expect(check({ homeZip: "SW1A 1AA", travelMiles: "0" })).toEqual({
      homeZip: "Kindly works in the United States only for now. Please enter a 5-digit US ZIP code, like 62701.",
      travelMiles: "Please choose a distance from 1 to 100 miles.",
    });
    expect(check({ homeZip: "62704-1234", travelMiles: "100" })).toEqual({});
    expect(check({ travelMiles: "10000" })).toEqual({ travelMiles: "Please choose a distance from 1 to 100 miles." });
    expect(check({ phone: "555 123 4567 ext 2" })).toEqual({
      phone: "Phone number can contain only digits, spaces, dashes, dots, parentheses and a leading +.",
    });
  });

  it("takes the server's limits and words from the page", () => {
    const limits = { serviceArea: { maxLength: 5, maxLengthMessage: "Service area can be at most 5 characters." } };
    expect(check({ serviceArea: "Springfield" }, limits)).toEqual({
      serviceArea: "Service area can be at most 5 characters.",
    });
  });

  it("sends trimmed texts and the rate as a number", () => {
    expect(providerApplicationPayload({ ...APPLICATION, serviceArea: "  Springfield " })).toMatchObject({
      serviceArea: "Springfield",
      hourlyRate: 25,
      homeZip: "62704",
      travelMiles: 15,
    });
  });
});

describe("the login cards' schemas", () => {
  const empty = { firstName: "", lastName: "", email: "", password: "" };

  it("sign in asks for an email and a password", () => {
    expect(problems(signInSchema, empty)).toEqual({
      email: "Please enter your email address.",
      password: "Please enter your password.",
    });
    expect(problems(signInSchema, { ...empty, email: "ann@example", password: "x" })).toEqual({
      email: "Please enter a valid email address.",
    });
  });

  it("sign up asks for names of more than spaces and a password of 6 characters", () => {
    expect(problems(signUpSchema, { ...empty, firstName: "  " })).toEqual({
      firstName: "Please enter your first name.",
      lastName: "Please enter your last name.",
      email: "Please enter your email address.",
      password: "Please choose a password.",
    });
    expect(
      problems(signUpSchema, { firstName: "Ann", lastName: "Lee", email: "ann@example.com", password: "12345" }),
    ).toEqual({
      password: "Password should be at least 6 characters long.",
    });
  });

  it("the password reset asks only for the email", () => {
    expect(problems(passwordResetSchema, empty)).toEqual({ email: "Please enter your email address." });
    expect(problems(passwordResetSchema, { ...empty, email: " ann@example.com " })).toEqual({});
  });
});
