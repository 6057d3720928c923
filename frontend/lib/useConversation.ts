// The open conversation of the messages page: its messages (loaded, marked read, merged with
// the live ones), whether the other person is typing, and sending. Live over the page's
// websocket (lib/realtime); while it is down the conversation is polled every 5 s (spec section 9).
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "./api";
import type { Conversation, Message, PublicUser as Person } from "./types";
import { send as sendFrame, usePollingFallback, useRealtimeEvent, type TypingEvent } from "./realtime";

// The API's shapes (lib/types, generated from the schema); a conversation opened here by a message
// from someone new has the role "other".
export type { Message, PublicUser as Person } from "./types";
export type BookingRef = Conversation["bookings"][number];
export interface ConversationInfo extends Omit<Conversation, "role"> {
  role: Conversation["role"] | "other";
}

/** The id of the System Notifications conversation. */
export const SYSTEM = "system";
export const POLL_MS = 5000;
const TYPING_SHOWN_MS = 1000;
const TYPING_SEND_EVERY_MS = 700;

export function displayName(p: Person): string {
  return `${p.firstName} ${p.lastName}`.trim() || "Kindly member";
}

function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

/**
 * `selected`: the other person's id, SYSTEM, or null (none open); `current`: their conversation
 * (null for SYSTEM). `fail` handles a failed load (a lost session). `send` answers whether the
 * message went; its failure is the caller's to tell.
 */
export function useConversation({
  me,
  selected,
  current,
  fail,
}: {
  me: Person;
  selected: string | null;
  current: ConversationInfo | null;
  fail: (error: unknown) => void;
}) {
  const [messages, setMessages] = useState<Message[]>([]);
  const [loading, setLoading] = useState(false);
  const [typingUntil, setTypingUntil] = useState(0);
  const lastTypingSent = useRef(0);
  const selectedRef = useRef(selected);
  useEffect(() => {
    selectedRef.current = selected; // before the effects below that read it
  }, [selected]);

  // Load (and mark read) the open conversation; the server pushes the new unread count.
  const load = useCallback(async () => {
    const target = selectedRef.current;
    if (!target) return;
    const path =
      target === SYSTEM
        ? "/api/messages/system-notifications"
        : `/api/messages/conversation/${encodeURIComponent(target)}`;
    const list = await api.get<Message[]>(path);
    if (selectedRef.current === target) setMessages((prev) => mergeMessages(prev, list));
  }, []);

  useEffect(() => {
    setMessages([]);
    setTypingUntil(0);
    if (!selected) return;
    setLoading(true);
    load()
      .catch(fail)
      .finally(() => setLoading(false));
  }, [selected, load, fail]);

  // Polling fallback while the socket is down (and one catch-up each time it comes back).
  usePollingFallback(() => {
    load().catch(fail);
  }, POLL_MS);

  useRealtimeEvent<Message>("message.created", (message) => {
    const open = selectedRef.current;
    const isSystem = message.senderId === SYSTEM;
    const other = message.senderId === me.id ? message.receiverId : message.senderId;
    if ((isSystem && open === SYSTEM) || (!isSystem && open === other)) {
      setMessages((prev) => mergeMessages(prev, [message]));
      if (message.senderId !== me.id) {
        setTypingUntil(0);
        // Reading it: the conversation call marks it read and pushes the new count.
        load().catch(fail);
      }
    }
  });

  useRealtimeEvent<TypingEvent>("typing", ({ from }) => {
    if (from === selectedRef.current) setTypingUntil(Date.now() + TYPING_SHOWN_MS);
  });

  // The typing indicator hides itself 1 s after the last typing event.
  useEffect(() => {
    if (!typingUntil) return;
    const t = window.setTimeout(() => setTypingUntil(0), Math.max(0, typingUntil - Date.now()));
    return () => window.clearTimeout(t);
  }, [typingUntil]);

  /** Tell the other person we are typing, at most every TYPING_SEND_EVERY_MS. */
  const notifyTyping = () => {
    if (!current) return;
    const t = Date.now();
    if (t - lastTypingSent.current >= TYPING_SEND_EVERY_MS && sendFrame({ type: "typing", to: current.user.id })) {
      lastTypingSent.current = t;
    }
  };

  const send = async (content: string): Promise<void> => {
    if (!current) return;
    const message = await api.post<Message>("/api/messages", {
      receiverId: current.user.id,
      content,
      bookingId: current.bookingId,
    });
    setMessages((prev) => mergeMessages(prev, [message]));
  };

  return { messages, loading, typing: typingUntil > 0, notifyTyping, send };
}
