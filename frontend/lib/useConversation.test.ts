import { describe, expect, it } from "vitest";
import {
  conversationKey,
  hasVisit,
  messageKey,
  visitKey,
  type ConversationInfo,
  type Message,
} from "./useConversation";

const vera = { id: "vera", firstName: "Vera", lastName: "Helper", profileImageUrl: "" };
const visit = (id: number) => ({ id, title: "Technology Support", scheduledDate: "2026-12-02", status: "scheduled" });
// One pair (Harold and Vera), three visits; new messages are about visit 12.
const pair: ConversationInfo = {
  user: vera,
  role: "provider",
  bookingId: 12,
  thread: true,
  recipient: { id: 1, fullName: "Harold Smith", timeZone: "America/Chicago" },
  bookings: [visit(13), visit(12), visit(11)],
};

describe("a care recipient and helper pair is one conversation", () => {
  it("finds the pair by any of its visits", () => {
    expect(conversationKey(pair)).toBe("booking-12");
    expect([11, 12, 13].map((id) => visitKey([pair], id))).toEqual(["booking-12", "booking-12", "booking-12"]);
    expect(hasVisit(pair, 11)).toBe(true);
    expect(hasVisit(pair, 99)).toBe(false);
    expect(visitKey([pair], 99)).toBe("booking-99");
  });

  it("puts a live message about another visit of the pair in the pair's conversation", () => {
    const message = { senderId: "vera", receiverId: "vera", bookingId: 11, thread: true } as Message;
    expect(messageKey(message, "clara", [pair])).toBe("booking-12");
  });
});
