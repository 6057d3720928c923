import { describe, expect, it } from "vitest";
import { problems } from "./testing";
import {
  createPayload,
  editPayload,
  serviceRequestCreateSchema,
  serviceRequestEditSchema,
  type RequestBounds,
  type ServiceRequestCreateValues,
  type ServiceRequestValues,
  URGENCY_VALUES,
  withSeriesFields,
} from "./service-request";

const BOUNDS: RequestBounds = {
  today: "2026-11-23",
  latestDate: "2027-11-23",
  latestDateMessage: "Preferred date must be within the next 12 months.",
};

const VALID: ServiceRequestCreateValues = {
  recipientId: "self",
  categoryId: "2",
  title: "Help setting up video calls",
  description: "My tablet needs the video call app set up.",
  urgency: "normal",
  preferredDate: "2026-11-30",
  preferredTime: "morning",
  street: "12 Oak Street",
  unit: "",
  town: "Springfield",
  state: "",
  zipCode: "",
  specialRequirements: "",
  tasks: [],
  estimatedDuration: "60",
  maxBudget: "",
  onlyRequestedProvider: false,
  repeat: "",
  repeatEnds: "count",
  repeatCount: "4",
  repeatUntil: "",
};

const create = (changes: Partial<ServiceRequestCreateValues>, bounds: RequestBounds = BOUNDS) =>
  problems(serviceRequestCreateSchema(bounds), { ...VALID, ...changes });
/** The edit form's values: the create form's, less whom it is for. */
function editValues(changes: Partial<ServiceRequestCreateValues> = {}): ServiceRequestValues {
  const values: Partial<ServiceRequestCreateValues> = { ...VALID, ...changes };
  delete values.recipientId;
  delete values.onlyRequestedProvider;
  return values as ServiceRequestValues;
}
const edit = (changes: Partial<ServiceRequestCreateValues>, bounds: RequestBounds = BOUNDS) =>
  problems(serviceRequestEditSchema(bounds), editValues(changes));

describe("serviceRequestCreateSchema and serviceRequestEditSchema", () => {
  it("accept a complete request", () => {
    expect(create({})).toEqual({});
    expect(edit({})).toEqual({});
  });

  it("need a title, at most 200 characters as sent", () => {
    for (const check of [create, edit]) {
      expect(check({ title: "   " })).toEqual({ title: "Title is required" });
      expect(check({ title: ` ${"x".repeat(200)} ` })).toEqual({});
      expect(check({ title: "x".repeat(201) })).toEqual({ title: "Title can be at most 200 characters." });
    }
  });

  it("need a description of 10 to 5,000 characters", () => {
    for (const check of [create, edit]) {
      expect(check({ description: "" })).toEqual({ description: "Description must be at least 10 characters" });
      expect(check({ description: "  too short  " })).toEqual({
        description: "Description must be at least 10 characters",
      });
      expect(check({ description: "x".repeat(5001) })).toEqual({
        description: "Description can be at most 5,000 characters.",
      });
    }
  });

  it("need a category, a street and town, and keep special requirements under 5,000 characters", () => {
    for (const check of [create, edit]) {
      expect(check({ categoryId: "" })).toEqual({ categoryId: "Category is required" });
      expect(check({ street: " " })).toEqual({ street: "Please enter the street address." });
      expect(check({ town: "" })).toEqual({ town: "Please enter the town." });
      expect(check({ street: "x".repeat(256) })).toEqual({ street: "Street can be at most 255 characters." });
      expect(check({ zipCode: "1".repeat(11) })).toEqual({ zipCode: "ZIP can be at most 10 characters." });
      expect(check({ specialRequirements: "x".repeat(5001) })).toEqual({
        specialRequirements: "Special requirements can be at most 5,000 characters.",
      });
    }
  });

  it("take the page's limits and their words over the defaults", () => {
    const bounds = { ...BOUNDS, limits: { title: { maxLength: 5, maxLengthMessage: "Five at most." } } };
    expect(create({ title: "123456" }, bounds)).toEqual({ title: "Five at most." });
    expect(edit({ title: "12345" }, bounds)).toEqual({});
  });

  it("create asks whom it is for; edit does not", () => {
    expect(create({ recipientId: "" })).toEqual({ recipientId: "Please choose who this request is for." });
    expect(create({ recipientId: "7" })).toEqual({});
    expect(edit({ recipientId: "" })).toEqual({});
  });

  it("create offers four urgencies, edit three: an urgent request keeps its urgency there", () => {
    expect(create({ urgency: "urgent" })).toEqual({});
    expect(create({ urgency: "soon" })).toEqual({ urgency: "Urgency must be low, normal, high or urgent." });
    expect(edit({ urgency: "high" })).toEqual({});
    expect(edit({ urgency: "urgent" })).toEqual({});
    expect(edit({ urgency: "soon" })).toEqual({ urgency: "Urgency must be low, normal or high." });
    expect(URGENCY_VALUES.edit).not.toContain("urgent");
  });

  it("need a preferred date on create, from today to a year ahead on both", () => {
    expect(create({ preferredDate: "" })).toEqual({ preferredDate: "Please choose a preferred date." });
    expect(edit({ preferredDate: "" })).toEqual({});
    for (const check of [create, edit]) {
      expect(check({ preferredDate: "2026-11-23" })).toEqual({});
      expect(check({ preferredDate: "2026-11-22" })).toEqual({
        preferredDate: "Preferred date cannot be in the past.",
      });
      expect(check({ preferredDate: "2027-11-23" })).toEqual({});
      expect(check({ preferredDate: "2027-11-24" })).toEqual({
        preferredDate: "Preferred date must be within the next 12 months.",
      });
    }
  });

  it("need a preferred time on create, one of the windows on both", () => {
    expect(create({ preferredTime: "" })).toEqual({ preferredTime: "Preferred time is required" });
    expect(edit({ preferredTime: "" })).toEqual({});
    expect(edit({ preferredTime: "night" })).toEqual({
      preferredTime: "Preferred time must be morning, afternoon, evening or flexible.",
    });
  });

  it("take durations from 15 minutes in steps of 15 on create", () => {
    expect(create({ estimatedDuration: "15" })).toEqual({});
    expect(create({ estimatedDuration: "1440" })).toEqual({});
    for (const short of ["", "abc", "10", "0", "-15", "30.5"]) {
      expect(create({ estimatedDuration: short }), short).toEqual({
        estimatedDuration: "Duration must be at least 15 minutes",
      });
    }
    expect(create({ estimatedDuration: "20" })).toEqual({
      estimatedDuration: "Duration must be in steps of 15 minutes",
    });
    expect(create({ estimatedDuration: "1455" })).toEqual({ estimatedDuration: "Duration can be at most 24 hours." });
  });

  it("take any whole minute from 1 on edit", () => {
    expect(edit({ estimatedDuration: "1" })).toEqual({});
    expect(edit({ estimatedDuration: "20" })).toEqual({});
    for (const short of ["", "0", "2.5"]) {
      expect(edit({ estimatedDuration: short }), short).toEqual({
        estimatedDuration: "Duration must be at least 1 minute",
      });
    }
    expect(edit({ estimatedDuration: "1441" })).toEqual({ estimatedDuration: "Duration can be at most 24 hours." });
  });

  it("take an optional budget of $0 to $99,999, in steps of $5 on create only", () => {
    for (const check of [create, edit]) {
      for (const fine of ["", "0", "5", "99995"]) expect(check({ maxBudget: fine }), fine).toEqual({});
      expect(check({ maxBudget: "-5" })).toEqual({ maxBudget: "Budget cannot be negative." });
      expect(check({ maxBudget: "100000" })).toEqual({ maxBudget: "Budget can be at most $99,999." });
    }
    expect(create({ maxBudget: "42" })).toEqual({ maxBudget: "Budget must be in steps of $5" });
    expect(create({ maxBudget: "12.50" })).toEqual({ maxBudget: "Budget must be in steps of $5" });
    expect(edit({ maxBudget: "42" })).toEqual({});
    expect(edit({ maxBudget: "12.50" })).toEqual({});
  });

  it("say one thing per field: the first rule that applies", () => {
    expect(create({ title: "", description: "", categoryId: "", street: "", estimatedDuration: "" })).toEqual({
      title: "Title is required",
      description: "Description must be at least 10 characters",
      categoryId: "Category is required",
      street: "Please enter the street address.",
      estimatedDuration: "Duration must be at least 15 minutes",
    });
  });
});

describe("a repeat (series_problems)", () => {
  const weekly = { repeat: "weekly", preferredDate: "2026-12-01" } as const;

  it("is not checked when the request does not repeat", () => {
    for (const check of [create, edit]) {
      expect(check({ repeatCount: "", repeatEnds: "until", repeatUntil: "" })).toEqual({});
    }
  });

  it("needs 2 to 26 visits", () => {
    for (const check of [create, edit]) {
      expect(check({ ...weekly, repeatCount: "2" })).toEqual({});
      expect(check({ ...weekly, repeatCount: "26" })).toEqual({});
      expect(check({ ...weekly, repeatCount: "" })).toEqual({
        repeatCount: "Choose how many visits, or the date of the last one.",
      });
      expect(check({ ...weekly, repeatCount: "1" })).toEqual({ repeatCount: "A series needs at least 2 visits." });
      expect(check({ ...weekly, repeatCount: "27" })).toEqual({
        repeatCount: "A series can have at most 26 visits; this one would have 27.",
      });
    }
  });

  it("needs an end date after the first visit that leaves 2 to 26 visits", () => {
    const until = (repeatUntil: string) => ({ ...weekly, repeatEnds: "until" as const, repeatUntil });
    for (const check of [create, edit]) {
      expect(check(until("2026-12-08"))).toEqual({});
      expect(check(until(""))).toEqual({ repeatUntil: "Choose how many visits, or the date of the last one." });
      expect(check(until("2026-12-01"))).toEqual({ repeatUntil: "The end date must be after the first visit." });
      expect(check(until("2026-12-07"))).toEqual({
        repeatUntil: "This end date leaves only one visit: choose a later date.",
      });
      expect(check(until("2027-06-01"))).toEqual({
        repeatUntil: "A series can have at most 26 visits; this one would have 27.",
      });
    }
  });

  it("needs the first visit's date: its own message on create, the series' on edit", () => {
    expect(create({ ...weekly, preferredDate: "" })).toEqual({ preferredDate: "Please choose a preferred date." });
    expect(edit({ ...weekly, preferredDate: "" })).toEqual({
      preferredDate: "A repeating request needs the date of its first visit.",
    });
  });

  it("is checked with the fields' own rules, each field saying its first problem", () => {
    expect(create({ ...weekly, title: "", repeatCount: "1" })).toEqual({
      title: "Title is required",
      repeatCount: "A series needs at least 2 visits.",
    });
  });
});

describe("withSeriesFields", () => {
  const values: ServiceRequestValues = {
    ...editValues(),
    repeat: "weekly",
    repeatEnds: "until",
    repeatUntil: "2026-12-15",
  };

  it("re-checks a chosen end date with its first date", () => {
    expect(withSeriesFields({ preferredDate: "2026-12-02" }, values, {})).toEqual({
      preferredDate: "2026-12-02",
      repeatUntil: "2026-12-15",
    });
    expect(withSeriesFields({ preferredDate: "2026-12-02" }, { ...values, repeatUntil: "" }, {})).toEqual({
      preferredDate: "2026-12-02",
    });
    expect(withSeriesFields({ preferredDate: "2026-12-02" }, { ...values, repeat: "" }, {})).toEqual({
      preferredDate: "2026-12-02",
    });
  });

  it("re-checks the date's message when the repeat changes", () => {
    const said = { preferredDate: "A repeating request needs the date of its first visit." };
    expect(withSeriesFields({ repeat: "" }, { ...values, preferredDate: "" }, said)).toEqual({
      repeat: "",
      preferredDate: "",
    });
    expect(withSeriesFields({ repeat: "" }, values, {})).toEqual({ repeat: "" });
  });
});

describe("the task list", () => {
  it("says the server's words for too many, too long and repeated tasks", () => {
    expect(create({ tasks: Array.from({ length: 11 }, (_, i) => `Task ${i}`) })).toEqual({
      tasks: "A visit can have at most 10 tasks.",
    });
    expect(create({ tasks: ["x".repeat(121)] })).toEqual({ tasks: "Each task can be at most 120 characters." });
    expect(create({ tasks: ["Water the plants", "water the  plants"] })).toEqual({
      tasks: "Each task can be listed once.",
    });
    expect(create({ tasks: ["Set up video calls", "Pick up prescriptions"] })).toEqual({});
  });

  it("sends the items tidied, empty ones left out", () => {
    expect(createPayload({ ...VALID, tasks: ["  Set up   video calls ", "", "Pick up prescriptions"] }).tasks).toEqual([
      "Set up video calls",
      "Pick up prescriptions",
    ]);
  });
});

describe("createPayload and editPayload", () => {
  it("send the repeat's end the form shows, and a direct request's helper", () => {
    expect(createPayload({ ...VALID, repeat: "weekly", repeatCount: "3" })).toMatchObject({
      repeat: "weekly",
      repeatCount: 3,
      repeatUntil: null,
    });
    expect(createPayload(VALID)).not.toHaveProperty("requestedProviderId");
    expect(createPayload({ ...VALID, onlyRequestedProvider: true }, 9)).toMatchObject({
      requestedProviderId: 9,
      onlyRequestedProvider: true,
    });
    expect(
      editPayload({ ...editValues(), repeat: "monthly", repeatEnds: "until", repeatUntil: "2027-03-02" }),
    ).toMatchObject({ repeat: "monthly", repeatCount: null, repeatUntil: "2027-03-02" });
  });

  it("send trimmed texts, numbers, and the user themself as no recipient", () => {
    const sent = createPayload({ ...VALID, title: "  Tablet  ", maxBudget: "40", recipientId: "self" });
    expect(sent).toMatchObject({ title: "Tablet", maxBudget: 40, estimatedDuration: 60, categoryId: 2 });
    expect(sent.recipientId).toBeNull();
    expect(createPayload({ ...VALID, recipientId: "7" }).recipientId).toBe(7);
  });

  it("leave an urgent request's urgency alone, and send no date or budget as null", () => {
    const values = editValues();
    expect(editPayload({ ...values, urgency: "urgent" })).not.toHaveProperty("urgency");
    expect(editPayload({ ...values, urgency: "high" }).urgency).toBe("high");
    expect(editPayload({ ...values, preferredDate: "", maxBudget: "" })).toMatchObject({
      preferredDate: null,
      maxBudget: null,
    });
  });
});
