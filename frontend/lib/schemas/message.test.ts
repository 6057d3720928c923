import { describe, expect, it } from "vitest";
import { messageSchema } from "./message";

const problem = (content: string, maxLength = 2000) =>
  messageSchema(maxLength).safeParse({ content }).error?.issues[0]?.message ?? "";

describe("messageSchema", () => {
  it("accepts a message, spaces around it included", () => {
    expect(problem("Hello")).toBe("");
    expect(problem(`  ${"x".repeat(2000)}\n`)).toBe("");
  });

  it("refuses an empty or whitespace-only message in the server's words", () => {
    expect(problem("")).toBe("Message cannot be empty.");
    expect(problem(" \n\t ")).toBe("Message cannot be empty.");
  });

  it("holds the server's limit", () => {
    expect(problem("x".repeat(2001))).toBe("Message can be at most 2,000 characters.");
    expect(problem("x".repeat(6), 5)).toBe("Message can be at most 5 characters.");
  });
});
