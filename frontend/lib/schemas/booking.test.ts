import { describe, expect, it } from "vitest";
import { problems } from "./testing";
import {
  adminCancelSchema,
  CANCEL_REASON_REQUIRED,
  clientCancelSchema,
  RATING_MISSING,
  RATING_RANGE,
  REPORT_EMPTY,
  reviewPayload,
  reviewSchema,
  TEXT_MAX,
  visitReportPayload,
  visitReportSchema,
  WELLBEING_MISSING,
  WELLBEING_RANGE,
  type VisitReportValues,
} from "./booking";

const LONG = "a".repeat(TEXT_MAX + 1);

describe("cancellation reason", () => {
  it("is optional for the client, at most 2,000 characters once trimmed", () => {
    expect(problems(clientCancelSchema, { reason: "" })).toEqual({});
    expect(problems(clientCancelSchema, { reason: `  ${"a".repeat(TEXT_MAX)}  ` })).toEqual({});
    expect(problems(clientCancelSchema, { reason: LONG })).toEqual({
      reason: "Reason can be at most 2,000 characters.",
    });
  });

  it("is required of the admin", () => {
    expect(problems(adminCancelSchema, { reason: "" })).toEqual({ reason: CANCEL_REASON_REQUIRED });
    expect(problems(adminCancelSchema, { reason: "   " })).toEqual({ reason: CANCEL_REASON_REQUIRED });
    expect(problems(adminCancelSchema, { reason: "Provider is ill" })).toEqual({});
    expect(problems(adminCancelSchema, { reason: LONG })).toEqual({
      reason: "Cancellation reason can be at most 2,000 characters.",
    });
  });
});

describe("review", () => {
  it("asks for a rating from 1 to 5", () => {
    expect(problems(reviewSchema, { rating: 0, comment: "" })).toEqual({ rating: RATING_MISSING });
    expect(problems(reviewSchema, { rating: 6, comment: "" })).toEqual({ rating: RATING_RANGE });
    expect(problems(reviewSchema, { rating: 2.5, comment: "" })).toEqual({ rating: RATING_RANGE });
    for (const rating of [1, 2, 3, 4, 5]) expect(problems(reviewSchema, { rating, comment: "" })).toEqual({});
  });

  it("keeps the comment optional, at most 2,000 characters", () => {
    expect(problems(reviewSchema, { rating: 5, comment: LONG })).toEqual({
      comment: "Comment can be at most 2,000 characters.",
    });
  });

  it("sends the comment trimmed", () => {
    expect(reviewPayload({ rating: 4, comment: "  Lovely visit.\n" })).toEqual({ rating: 4, comment: "Lovely visit." });
  });
});

describe("visit report", () => {
  const VALID: VisitReportValues = {
    tasksDone: [],
    notes: "Set up the tablet.",
    wellbeing: 4,
    forFamily: "",
    followUpSuggested: false,
  };
  const report = (changes: Partial<VisitReportValues>) => problems(visitReportSchema, { ...VALID, ...changes });

  it("is fine with a few words or a ticked task, and a wellbeing", () => {
    expect(report({})).toEqual({});
    expect(report({ notes: "", tasksDone: ["Video calls"] })).toEqual({});
  });

  it("asks how they seemed, from 1 to 5", () => {
    expect(report({ wellbeing: null })).toEqual({ wellbeing: WELLBEING_MISSING });
    expect(report({ wellbeing: 0 })).toEqual({ wellbeing: WELLBEING_RANGE });
    expect(report({ wellbeing: 6 })).toEqual({ wellbeing: WELLBEING_RANGE });
  });

  it("asks what was done when nothing is ticked or written, with the wellbeing at once", () => {
    expect(report({ notes: "  " })).toEqual({ notes: REPORT_EMPTY });
    expect(report({ notes: "", wellbeing: null })).toEqual({ notes: REPORT_EMPTY, wellbeing: WELLBEING_MISSING });
  });

  it("keeps the texts to 2,000 characters, in the serializer's words", () => {
    expect(report({ notes: LONG, forFamily: LONG })).toEqual({
      notes: "What was done can be at most 2,000 characters.",
      forFamily: "For the family can be at most 2,000 characters.",
    });
  });

  it("sends its five fields, trimmed (a saved report read back has more)", () => {
    const saved = {
      ...VALID,
      notes: " Set up the tablet. ",
      forFamily: " Call on Sunday. ",
      bookingId: 7,
      wellbeingLabel: "Good",
      edits: [],
    };
    expect(visitReportPayload(saved)).toEqual({
      tasksDone: [],
      notes: "Set up the tablet.",
      wellbeing: 4,
      forFamily: "Call on Sunday.",
      followUpSuggested: false,
    });
  });
});
