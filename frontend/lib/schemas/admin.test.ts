import { describe, expect, it } from "vitest";
import { problems } from "./testing";
import bookingSerializers from "../../../bookings/api/serializers/actions.py?raw";
import adminSerializers from "../../../adminpanel/api/serializers.py?raw";
import {
  listFilterSchema,
  PROVIDER_MISSING,
  PROVIDER_NOT_FOUND,
  reassignPayload,
  reassignSchema,
  SEARCH_MAX,
  verdictSchema,
} from "./admin";

describe("the server's words", () => {
  it("are the serializers' own", () => {
    expect(bookingSerializers).toContain(`"${PROVIDER_MISSING}"`);
    expect(bookingSerializers).toContain(`"${PROVIDER_NOT_FOUND}"`);
    expect(adminSerializers).toContain(`max_length=${SEARCH_MAX}`);
  });
});

describe("verdict note", () => {
  it("is optional, at most 2,000 characters", () => {
    expect(problems(verdictSchema, { reason: "" })).toEqual({});
    expect(problems(verdictSchema, { reason: "a".repeat(2001) })).toEqual({
      reason: "Reason can be at most 2,000 characters.",
    });
  });
});

describe("reassignment", () => {
  const VALID = { providerId: "12", reason: "", search: "" };

  it("needs a provider chosen", () => {
    expect(problems(reassignSchema, VALID)).toEqual({});
    expect(problems(reassignSchema, { ...VALID, providerId: "" })).toEqual({ providerId: PROVIDER_MISSING });
    expect(problems(reassignSchema, { ...VALID, providerId: "0" })).toEqual({ providerId: PROVIDER_NOT_FOUND });
  });

  it("keeps the reason to 2,000 characters and the search free", () => {
    expect(problems(reassignSchema, { ...VALID, reason: "a".repeat(2001), search: "anything" })).toEqual({
      reason: "Reason can be at most 2,000 characters.",
    });
  });

  it("sends the provider's id as a number", () => {
    expect(reassignPayload({ providerId: "12", reason: "Closer", search: "ann" })).toEqual({
      newProviderId: 12,
      reason: "Closer",
    });
  });
});

describe("list filters", () => {
  const schema = listFilterSchema(["confirmed", "cancelled"]);

  it("take a search of at most 200 characters and a listed status", () => {
    expect(problems(schema, { search: "", status: "" })).toEqual({});
    expect(problems(schema, { search: "ann", status: "confirmed" })).toEqual({});
    expect(problems(schema, { search: "a".repeat(201), status: "" })).toEqual({
      search: "Search can be at most 200 characters.",
    });
    expect(problems(schema, { search: "", status: "lost" })).toEqual({ status: '"lost" is not a valid choice.' });
  });
});
