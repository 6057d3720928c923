import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { problems } from "./testing";
import { cardNumberIsValid, cardSchema, expiryProblem, parseExpiry, tidyExpiry, type CardValues } from "./card";

const CARD: CardValues = { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" };
const NOW = new Date(2026, 10, 23); // November 2026

describe("cardSchema", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  const check = (changes: Partial<CardValues>) => problems(cardSchema, { ...CARD, ...changes });

  it("accepts the test cards", () => {
    expect(check({})).toEqual({});
    expect(check({ cardNumber: "4000-0000-0000-0002", cvc: "1234" })).toEqual({});
  });

  it("asks for each empty field in the page's words", () => {
    expect(check({ cardNumber: " ", expiry: "", cvc: "  " })).toEqual({
      cardNumber: "Enter your card number.",
      expiry: "Enter the expiry date (MM / YY).",
      cvc: "Enter the security code.",
    });
  });

  it("says the server's words for a wrong number or security code", () => {
    expect(check({ cardNumber: "4242 4242 4242 4241" })).toEqual({ cardNumber: "Your card number is invalid." });
    expect(check({ cardNumber: "4242 4242 42" })).toEqual({ cardNumber: "Your card number is invalid." });
    expect(check({ cardNumber: "4242 4242 4242 424x" })).toEqual({ cardNumber: "Your card number is invalid." });
    expect(check({ cvc: "12" })).toEqual({ cvc: "Your card's security code is invalid." });
    expect(check({ cvc: "12a" })).toEqual({ cvc: "Your card's security code is invalid." });
  });

  it("explains an expiry it cannot read, a wrong month, a past or a far date", () => {
    expect(check({ expiry: "next year" })).toEqual({
      expiry: "Enter the expiry date as MM / YY, for example 04 / 28.",
    });
    expect(check({ expiry: "13/40" })).toEqual({ expiry: "The month must be a number from 01 to 12." });
    expect(check({ expiry: "10/2026" })).toEqual({
      expiry: "This card expired at the end of 10 / 26. Please use a card that is still valid.",
    });
    expect(check({ expiry: "11/26" })).toEqual({});
    expect(check({ expiry: "12/2046" })).toEqual({});
    expect(check({ expiry: "01/2047" })).toEqual({
      expiry: "Please check the expiry date: it is more than 20 years away.",
    });
  });
});

describe("the expiry's spellings", () => {
  it("reads what the server reads", () => {
    expect(parseExpiry("12/30")).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry(" 12 - 30 ")).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry("1/2030")).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry("130")).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry("122030")).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry("12/3")).toBeNull();
  });

  it("shows a read date back as MM / YY, and leaves anything else as typed", () => {
    expect(tidyExpiry("130")).toBe("01 / 30");
    expect(tidyExpiry("3/2030")).toBe("03 / 30");
    expect(tidyExpiry("13/30")).toBe("13/30");
    expect(tidyExpiry("soon")).toBe("soon");
  });

  it("is good until the end of the printed month", () => {
    expect(expiryProblem("11/26", new Date(2026, 10, 30))).toBe("");
    expect(expiryProblem("11/26", new Date(2026, 11, 1))).toMatch(/^This card expired at the end of 11 \/ 26\./);
  });
});

describe("cardNumberIsValid", () => {
  it("wants 13 to 19 digits passing the Luhn check", () => {
    expect(cardNumberIsValid("4242424242424242")).toBe(true);
    expect(cardNumberIsValid("4000 0000 0000 0002")).toBe(true);
    expect(cardNumberIsValid("1234 5678 9012 3456")).toBe(false);
    expect(cardNumberIsValid("4222222222222")).toBe(true);
    expect(cardNumberIsValid("42424242424")).toBe(false);
  });
});
