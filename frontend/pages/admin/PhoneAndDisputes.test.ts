import { describe, expect, it } from "vitest";
import { waitedFor } from "./DisputesTab";
import { callLength } from "./PhoneTab";

describe("waitedFor", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  it("says how long a dispute has waited, in hours then days", () => {
    expect(waitedFor("2026-11-26T11:30:00Z", now)).toBe("less than an hour");
    expect(waitedFor("2026-11-26T11:00:00Z", now)).toBe("1 hour");
    expect(waitedFor("2026-11-25T10:00:00Z", now)).toBe("26 hours");
    expect(waitedFor("2026-11-23T12:00:00Z", now)).toBe("3 days");
    expect(waitedFor(null, now)).toBe("");
  });
});

describe("callLength", () => {
  it("gives a call's length, a text none, and an unanswered call in words", () => {
    expect(callLength({ kind: "call", seconds: 125 })).toBe("2 min 05 s");
    expect(callLength({ kind: "call", seconds: 42 })).toBe("42 s");
    expect(callLength({ kind: "call", seconds: null })).toBe("Not connected");
    expect(callLength({ kind: "text", seconds: null })).toBe("Text");
  });
});
