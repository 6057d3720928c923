import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message, Person } from "../../lib/useConversation";
import { Thread } from "./Thread";

const me: Person = { id: "u-me", firstName: "Clara", lastName: "Smith", profileImageUrl: "" };
const vera: Person = { id: "u-vera", firstName: "Vera", lastName: "Helper", profileImageUrl: "" };

// Sent at 5:59 PM in New York (10:59 PM UTC, a winter day), read an hour later.
const message: Message = {
  id: 1,
  senderId: vera.id,
  receiverId: me.id,
  bookingId: 7,
  content: "On my way",
  messageType: "text",
  isRead: false,
  createdAt: "2026-01-15T22:59:00Z",
  updatedAt: "2026-01-15T22:59:00Z",
  sender: vera,
  thread: true,
};

describe("a conversation about a senior", () => {
  afterEach(() => vi.useRealTimers());

  it("shows each message's time on her clock, naming her zone for a viewer elsewhere", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-15T23:59:00Z"));
    render(
      <Thread me={me} messages={[message]} loading={false} typingName="" showSenders timeZone="America/New_York" />,
    );
    // The browser here is not in New York (UTC): her zone is named.
    expect(screen.getByText(/5:59 PM/).textContent).toBe("5:59 PM Eastern Time");
  });
});
