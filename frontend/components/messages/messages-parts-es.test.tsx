// The messages page's parts in Spanish: the list of conversations, a conversation's messages (its
// visit dividers, who wrote, who is typing) and the box to write in.
import { screen } from "@testing-library/react";
import { createRef } from "react";
import { describe, expect, it } from "vitest";
import { Composer } from "./Composer";
import { ConversationList } from "./ConversationList";
import { Thread } from "./Thread";
import { activateForTest, renderWithI18n } from "../../lib/test-i18n";
import type { UnreadCount } from "../../lib/types";
import type { ConversationInfo, Message, Person } from "../../lib/useConversation";

const me: Person = { id: "u-me", firstName: "Vera", lastName: "Helper", profileImageUrl: "" };
const clara: Person = { id: "u-clara", firstName: "Clara", lastName: "Smith", profileImageUrl: "" };

const conversation = {
  user: clara,
  role: "provider",
  thread: true,
  bookingId: 7,
  recipient: { id: 1, fullName: "Rosa Smith" },
  bookings: [
    { id: 7, title: "Wellness check", scheduledDate: "2026-12-01" },
    { id: 8, title: "Wellness check", scheduledDate: "2026-12-08" },
  ],
} as unknown as ConversationInfo;

const unread: UnreadCount = { count: 0, systemCount: 1, byBooking: {}, bySender: {} };

const message: Message = {
  id: 1,
  senderId: me.id,
  receiverId: clara.id,
  bookingId: 7,
  content: "Hola",
  messageType: "text",
  isRead: false,
  createdAt: "2026-01-15T22:59:00Z",
  updatedAt: "2026-01-15T22:59:00Z",
  sender: me,
  thread: true,
};

describe("the messages page's parts in Spanish", () => {
  it("lists the conversations in Spanish", async () => {
    await activateForTest("es");
    renderWithI18n(
      <ConversationList
        conversations={[conversation]}
        unread={unread}
        selected={null}
        showSystem
        onChoose={() => undefined}
      />,
    );
    expect(screen.getByRole("heading", { name: "Conversaciones" })).toBeTruthy();
    expect(screen.getByText("Avisos de Kindly")).toBeTruthy();
    expect(screen.getByText("2 visitas")).toBeTruthy();
    expect(screen.getByText("Ayudante · Para Rosa Smith")).toBeTruthy();
  });

  it("says the conversation's words and the composer's in Spanish", async () => {
    await activateForTest("es");
    renderWithI18n(
      <>
        <Thread
          me={me}
          messages={[message]}
          loading={false}
          typingName="Clara"
          visits={[{ id: 7, title: "Wellness check", scheduledDate: "2026-12-01" } as never]}
        />
        <Composer
          to="Clara"
          maxLength={2000}
          inputRef={createRef()}
          onSend={() => Promise.resolve(true)}
          onTyping={() => {}}
        />
      </>,
    );
    expect(screen.getByTestId("visit-divider").textContent).toMatch(/^Visita del .* · Wellness check$/);
    expect(screen.getByText("Usted:")).toBeTruthy();
    expect(screen.getByTestId("typing").textContent).toBe("Clara está escribiendo...");
    expect(screen.getByLabelText("Mensaje para Clara")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Enviar" })).toBeTruthy();
  });

  it("keeps the English for an English reader", () => {
    renderWithI18n(
      <ConversationList
        conversations={[conversation]}
        unread={unread}
        selected={null}
        showSystem={false}
        onChoose={() => undefined}
      />,
    );
    expect(screen.getByText("2 visits")).toBeTruthy();
    expect(screen.getByText("Provider · For Rosa Smith")).toBeTruthy();
  });
});
