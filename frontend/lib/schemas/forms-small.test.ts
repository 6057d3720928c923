import { describe, expect, it } from "vitest";
import { problems } from "./testing";
import { closeAccountSchema } from "./account";
import { contactSchema, invitationSchema, recipientSchema, roleSchema } from "./circle";
import { declineSchema } from "./decline";
import { timeOffSchema, weeklyHoursSchema } from "./schedule";
import { signUpNameProblem } from "./sign-in";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

describe("closeAccountSchema", () => {
  it("takes CLOSE in any case, trimmed, and refuses anything else in the server's words", () => {
    expect(problems(closeAccountSchema, { confirm: " CLOSE " })).toEqual({});
    expect(problems(closeAccountSchema, { confirm: "close" })).toEqual({});
    expect(problems(closeAccountSchema, { confirm: " Close" })).toEqual({});
    expect(problems(closeAccountSchema, { confirm: "closed" })).toEqual({
      confirm: "Type CLOSE to confirm that you want to close your account.",
    });
  });
});

describe("declineSchema", () => {
  it("needs a reason of at most 500 characters", () => {
    expect(problems(declineSchema, { reason: "Away that week" })).toEqual({});
    expect(problems(declineSchema, { reason: "  " })).toEqual({
      reason: "Please say why you cannot take this request.",
    });
    expect(problems(declineSchema, { reason: "x".repeat(501) })).toEqual({
      reason: "The reason can be at most 500 characters.",
    });
  });
});

describe("circle schemas", () => {
  const recipient = {
    firstName: "Rose",
    lastName: "",
    street: "",
    unit: "",
    town: "",
    state: "",
    zipCode: "",
    phone: "",
    notesForHelpers: "",
  };
  it("a person cared for needs a first name; the server's limits", () => {
    expect(problems(recipientSchema, recipient)).toEqual({});
    expect(problems(recipientSchema, { ...recipient, firstName: " ", street: "a".repeat(256) })).toEqual({
      firstName: "Please enter a first name.",
      street: "Street can be at most 255 characters long.",
    });
  });
  it("an invitation needs a valid email and a role", () => {
    const invite = { email: "ann@example.com", role: "member", forRecipient: false, language: "en" };
    expect(problems(invitationSchema, invite)).toEqual({});
    expect(problems(invitationSchema, { ...invite, email: "" })).toEqual({ email: "Please enter an email address." });
    expect(problems(invitationSchema, { ...invite, email: "ann@" })).toEqual({
      email: "Please enter a valid email address, like name@example.com.",
    });
    expect(problems(roleSchema, { role: "owner" })).toEqual({ role: "Choose organizer or member." });
  });
  it("an emergency contact needs a name and a phone number", () => {
    expect(problems(contactSchema, { name: "Tom", relationship: "", phone: "555 123 4567" })).toEqual({});
    expect(problems(contactSchema, { name: "", relationship: "", phone: "" })).toEqual({
      name: "Name is required.",
      phone: "Phone number is required.",
    });
    expect(problems(contactSchema, { name: "Tom", relationship: "", phone: "555" })).toEqual({
      phone: "Phone number must be at least 10 digits",
    });
  });
});

describe("weeklyHoursSchema", () => {
  const schema = weeklyHoursSchema(WEEKDAYS);
  const w = (weekday: number, start: string, end: string, key = 1) => ({ key, weekday, start, end });
  it("accepts a week of windows", () => {
    expect(problems(schema, { windows: [w(0, "08:00", "12:00"), w(0, "13:00", "17:00")] })).toEqual({});
  });
  it("says a window that ends before it starts, an empty or off-step time", () => {
    expect(problems(schema, { windows: [w(0, "08:00", "07:00"), w(1, "", "09:10")] })).toEqual({
      "windows.0.end": "End time must be after the start time.",
      "windows.1.start": "Please enter a time like 09:30.",
      "windows.1.end": "Please choose a time on the quarter hour (for example 9:00, 9:15, 9:30).",
    });
  });
  it("says overlapping windows on a day", () => {
    expect(problems(schema, { windows: [w(2, "08:00", "12:00"), w(2, "11:00", "14:00")] })).toEqual({
      "windows.1.start": "This overlaps another window on Wednesday.",
    });
  });
});

describe("timeOffSchema", () => {
  const planned = [{ id: 1, firstDay: "2026-12-24", lastDay: "2026-12-26", note: "" }];
  const schema = timeOffSchema("2026-11-23", planned);
  it("accepts a day off, the last day defaulting to the first", () => {
    expect(problems(schema, { firstDay: "2026-12-01", lastDay: "", note: "" })).toEqual({});
  });
  it("says the server's words", () => {
    expect(problems(schema, { firstDay: "", lastDay: "", note: "" })).toEqual({
      firstDay: "Please choose the first day.",
    });
    expect(problems(schema, { firstDay: "2026-11-01", lastDay: "2026-10-01", note: "x".repeat(201) })).toEqual({
      firstDay: "Time off cannot start in the past.",
      lastDay: "The last day must be on or after the first day.",
      note: "Note can be at most 200 characters.",
    });
    expect(problems(schema, { firstDay: "2026-12-25", lastDay: "", note: "" })).toEqual({
      firstDay: "This overlaps time off you already have (December 24, 2026 to December 26, 2026).",
    });
  });
});

describe("signUpNameProblem", () => {
  it("asks for both names and keeps them within the server's limit, in its words", () => {
    expect(signUpNameProblem({ firstName: "Clara", lastName: "Smith" })).toBe("");
    expect(signUpNameProblem({ firstName: "", lastName: "Smith" })).toBe("Please enter your first name.");
    expect(signUpNameProblem({ firstName: "Clara", lastName: "" })).toBe("Please enter your last name.");
    expect(signUpNameProblem({ firstName: "C".repeat(150), lastName: "Smith" })).toBe("");
    expect(signUpNameProblem({ firstName: "C".repeat(151), lastName: "Smith" })).toBe(
      "First name can be at most 150 characters.",
    );
    expect(signUpNameProblem({ firstName: "Clara", lastName: "S".repeat(151) })).toBe(
      "Last name can be at most 150 characters.",
    );
  });
});
