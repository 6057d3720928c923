// The open conversation of the messages page: its messages (loaded, marked read, merged with
// the live ones), whether someone in it is typing, and sending. The messages are a TanStack query
// (lib/query) that live events update; while the page's websocket (lib/realtime) is down the
// conversation is polled every 5 s (spec section 9).
//
// A conversation is a care recipient and provider pair (the provider and the whole care circle of
// the recipient see the same messages, each naming its sender; every visit of the pair is in it,
// each message keeping the visit it was about), or a person (support). Its key: "booking-<id>" of
// the visit new messages are about for a pair, the person's id otherwise, SYSTEM for the
// notifications.
import { t } from "@lingui/core/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api } from "./api";
import { usePollWhileDisconnected } from "./query";
import type { Conversation, Message, PublicUser as Person } from "./types";
import { send as sendFrame, useRealtimeEvent } from "./realtime";

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
/** The unread counts' query key (lib/query: the API path). */
export const UNREAD_COUNT = "/api/messages/unread-count";
const TYPING_SHOWN_MS = 1000;
const TYPING_SEND_EVERY_MS = 700;

export function displayName(p: Person): string {
  return `${p.firstName} ${p.lastName}`.trim() || t`Kindly member`;
}

const THREAD_PREFIX = "booking-";

export function threadKey(bookingId: number): string {
  return `${THREAD_PREFIX}${bookingId}`;
}

/** The key of a conversation of the list (see the top of this file). */
export function conversationKey(c: ConversationInfo): string {
  return c.thread && c.bookingId !== null ? threadKey(c.bookingId) : c.user.id;
}

/** The booking id of a thread key, or null for any other key. */
export function threadBookingId(key: string | null): number | null {
  if (!key?.startsWith(THREAD_PREFIX)) return null;
  const id = Number(key.slice(THREAD_PREFIX.length));
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** The name a conversation goes by: for a provider a thread is named after its recipient. */
export function conversationName(c: ConversationInfo): string {
  if (c.thread && c.role === "client" && c.recipient) return c.recipient.fullName;
  return displayName(c.user);
}

/** Whether a booking is one of the visits of a (pair) conversation. */
export function hasVisit(c: ConversationInfo | null | undefined, bookingId: number | null | undefined): boolean {
  return Boolean(c?.thread && bookingId != null && c.bookings.some((b) => b.id === bookingId));
}

/** The key of the conversation holding a visit: the pair's, whichever of its visits it is. */
export function visitKey(list: ConversationInfo[], bookingId: number): string {
  const found = list.find((c) => hasVisit(c, bookingId));
  return found ? conversationKey(found) : threadKey(bookingId);
}

/** The key of the conversation a live message belongs to, as seen by `meId` (`list`: the page's
 * conversations, to find the pair a visit belongs to). */
export function messageKey(message: Message, meId: string, list: ConversationInfo[] = []): string {
  if (message.senderId === SYSTEM) return SYSTEM;
  if (message.thread && message.bookingId !== null) return visitKey(list, message.bookingId);
  return message.senderId === meId ? message.receiverId : message.senderId;
}

/** The API path of a conversation's messages (GETting it marks them read). */
export function conversationPath(key: string): string {
  const bookingId = threadBookingId(key);
  return key === SYSTEM
    ? "/api/messages/system-notifications"
    : bookingId !== null
      ? `/api/messages/booking/${bookingId}`
      : `/api/messages/conversation/${encodeURIComponent(key)}`;
}

function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

/**
 * `selected`: the open conversation's key, SYSTEM, or null (none open); `current`: that
 * conversation (null for SYSTEM). `fail` handles a failed load (a lost session is lib/query's). `send` answers whether the
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
  const client = useQueryClient();
  const [typingUntil, setTypingUntil] = useState(0);
  const [typingName, setTypingName] = useState("");
  const lastTypingSent = useRef(0);
  const selectedRef = useRef(selected);
  const currentRef = useRef(current);
  useEffect(() => {
    selectedRef.current = selected; // before the effects below that read it
    currentRef.current = current;
  }, [selected, current]);

  // The open conversation's messages; each load marks them read (the server pushes the new
  // unread count) and merges into what the page already shows (live ones included). A
  // conversation left is dropped (gcTime 0), so opening it again loads it afresh.
  const path = selected ? conversationPath(selected) : "";
  const query = useQuery({
    queryKey: [path],
    queryFn: async () => mergeMessages(client.getQueryData<Message[]>([path]) ?? [], await api.get<Message[]>(path)),
    enabled: selected !== null,
    gcTime: 0,
    // Polling fallback while the socket is down (and one catch-up each time it comes back).
    refetchInterval: usePollWhileDisconnected(path ? [[path]] : [], POLL_MS),
  });
  const error = query.error;
  useEffect(() => {
    if (error) fail(error);
  }, [error, fail]);

  useEffect(() => setTypingUntil(0), [selected]);

  const addMessages = (key: string, incoming: Message[]) =>
    client.setQueryData<Message[]>([conversationPath(key)], (prev) => mergeMessages(prev ?? [], incoming));

  useRealtimeEvent("message.created", (message) => {
    const open = selectedRef.current;
    const openConversation = currentRef.current;
    if (open && open === messageKey(message, me.id, openConversation ? [openConversation] : [])) {
      addMessages(open, [message]);
      if (message.senderId !== me.id) {
        setTypingUntil(0);
        // Reading it: the conversation call marks it read and pushes the new count.
        void client.invalidateQueries({ queryKey: [conversationPath(open)] });
      }
    }
  });

  useRealtimeEvent("typing", ({ from, name, bookingId }) => {
    const open = selectedRef.current;
    const inThread = bookingId !== undefined && hasVisit(currentRef.current, bookingId);
    if (inThread || (bookingId === undefined && from === open)) {
      setTypingName(inThread ? name || t`Someone` : "");
      setTypingUntil(Date.now() + TYPING_SHOWN_MS);
    }
  });

  // The typing indicator hides itself 1 s after the last typing event.
  useEffect(() => {
    if (!typingUntil) return;
    const t = window.setTimeout(() => setTypingUntil(0), Math.max(0, typingUntil - Date.now()));
    return () => window.clearTimeout(t);
  }, [typingUntil]);

  /** Tell the others we are typing (the whole thread, or the person), at most every TYPING_SEND_EVERY_MS. */
  const notifyTyping = () => {
    if (!current) return;
    const t = Date.now();
    if (t - lastTypingSent.current < TYPING_SEND_EVERY_MS) return;
    const frame =
      current.thread && current.bookingId !== null
        ? { type: "typing", booking: current.bookingId }
        : { type: "typing", to: current.user.id };
    if (sendFrame(frame)) lastTypingSent.current = t;
  };

  const sending = useMutation({
    mutationFn: ({ to, content }: { to: ConversationInfo; content: string; key: string }) =>
      api.post<Message>("/api/messages", { receiverId: to.user.id, content, bookingId: to.bookingId }),
    onSuccess: (message, { key }) => addMessages(key, [message]),
  });
  const send = async (content: string): Promise<void> => {
    if (!current || !selected) return;
    await sending.mutateAsync({ to: current, content, key: selected });
  };

  const messages = query.data ?? [];
  const loading = selected !== null && query.isPending;
  // Who is typing: in a thread the name the event carries, else "" (the caller names the person).
  return { messages, loading, typing: typingUntil > 0, typingName, notifyTyping, send };
}
