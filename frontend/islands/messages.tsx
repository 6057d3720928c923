// Messages page (spec "Messages page"): conversations on the left, the chat pane on the right.
// Live over the page's websocket (lib/realtime); while it is down, the open conversation and
// the unread count are polled every 5 s (spec section 9).
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { api, handleLoggedOut, isUnauthorizedError } from "../lib/api";
import { mountIsland } from "../lib/mount";
import {
  send as sendFrame,
  useConnected,
  usePollingFallback,
  useRealtimeEvent,
  type TypingEvent,
} from "../lib/realtime";
import { toast } from "../lib/toast";
import { CharacterCount } from "../components/Field";
import type { Conversation, Message, PublicUser as Person, UnreadCount } from "../lib/types";

/** A conversation from the server, or one opened here by a message from someone new ("other"). */
interface ConversationInfo extends Omit<Conversation, "role"> {
  role: Conversation["role"] | "other";
}

interface MessagesProps {
  me: Person & { isAdmin: boolean };
  conversations: ConversationInfo[];
  support: Person | null;
  unread: UnreadCount;
  maxLength: number;
}

const SYSTEM = "system";
const POLL_MS = 5000;
const TYPING_SHOWN_MS = 1000;
const TYPING_SEND_EVERY_MS = 700;
const DAY_MS = 24 * 60 * 60 * 1000;
const ROLE_LABEL: Record<ConversationInfo["role"], string> = {
  provider: "Provider",
  client: "Client",
  support: "Support",
  other: "",
};

function displayName(p: Person): string {
  return `${p.firstName} ${p.lastName}`.trim() || "Kindly member";
}

/** Spec: under 24 hours old shows the time only, otherwise date and time. */
function formatMessageTime(iso: string, now: number = Date.now()): string {
  const when = new Date(iso);
  if (now - when.getTime() < DAY_MS) {
    return when.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
  }
  return when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

function Avatar({ person }: { person: Person | null }) {
  if (person?.profileImageUrl) {
    return <img className="avatar" src={person.profileImageUrl} alt="" width={44} height={44} />;
  }
  const letter = person ? (person.firstName || "U").charAt(0).toUpperCase() : "!";
  return (
    <span className="avatar" aria-hidden="true">
      {letter}
    </span>
  );
}

function UnreadBadge({ n, testId }: { n: number; testId: string }) {
  if (n <= 0) return null;
  return (
    <span className="badge badge-unread" data-testid={testId}>
      {n} <span className="visually-hidden">unread</span>
    </span>
  );
}

/** ?with=<user id> opens that conversation; ?with=support opens the support one (links from the
 * dashboard and the request page, e.g. a booking inside the 48-hour window). */
function wantedConversation(): string | null {
  return new URLSearchParams(window.location.search).get("with");
}

function withSupport(list: ConversationInfo[], support: Person | null): ConversationInfo[] {
  if (!support || list.some((c) => c.user.id === support.id)) return list;
  return [...list, { user: support, role: "support", bookingId: null, bookings: [] }];
}

function Messages({ me, conversations: initialConversations, support, unread: initialUnread, maxLength }: MessagesProps) {
  const [conversations, setConversations] = useState<ConversationInfo[]>(() =>
    wantedConversation() === "support" ? withSupport(initialConversations, support) : initialConversations,
  );
  const [unread, setUnread] = useState<UnreadCount>(initialUnread);
  const [selected, setSelected] = useState<string | null>(() => {
    const wanted = wantedConversation();
    if (wanted === "support") return support?.id ?? null;
    return wanted && initialConversations.some((c) => c.user.id === wanted) ? wanted : null;
  });
  const [messages, setMessages] = useState<Message[]>([]);
  const [loading, setLoading] = useState(false);
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);
  const [typingUntil, setTypingUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const connected = useConnected();
  const logRef = useRef<HTMLOListElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const lastTypingSent = useRef(0);
  const selectedRef = useRef(selected);
  useEffect(() => {
    selectedRef.current = selected;
  }, [selected]);

  const current = useMemo(
    () => (selected && selected !== SYSTEM ? (conversations.find((c) => c.user.id === selected) ?? null) : null),
    [conversations, selected],
  );

  const fail = useCallback((error: unknown) => {
    if (isUnauthorizedError(error)) handleLoggedOut();
  }, []);

  // Load (and mark read) the open conversation; the server pushes the new unread count.
  const loadSelected = useCallback(async () => {
    const target = selectedRef.current;
    if (!target) return;
    const path =
      target === SYSTEM ? "/api/messages/system-notifications" : `/api/messages/conversation/${encodeURIComponent(target)}`;
    const list = await api.get<Message[]>(path);
    if (selectedRef.current === target) setMessages((prev) => mergeMessages(prev, list));
  }, []);

  const refreshUnread = useCallback(async () => {
    setUnread(await api.get<UnreadCount>("/api/messages/unread-count"));
  }, []);

  useEffect(() => {
    setMessages([]);
    setTypingUntil(0);
    if (!selected) return;
    setLoading(true);
    loadSelected()
      .catch(fail)
      .finally(() => setLoading(false));
  }, [selected, loadSelected, fail]);

  // Polling fallback while the socket is down (and one catch-up each time it comes back).
  usePollingFallback(() => {
    loadSelected().catch(fail);
    refreshUnread().catch(fail);
  }, POLL_MS);

  useRealtimeEvent<UnreadCount>("unread.count", setUnread);

  useRealtimeEvent<Message>("message.created", (message) => {
    const open = selectedRef.current;
    const isSystem = message.senderId === SYSTEM;
    const other = message.senderId === me.id ? message.receiverId : message.senderId;
    if (!isSystem && !conversations.some((c) => c.user.id === other) && message.sender) {
      // Someone new wrote (support, or a booking made after the page loaded).
      const sender = message.sender;
      setConversations((list) =>
        list.some((c) => c.user.id === other)
          ? list
          : [...list, { user: sender, role: sender.id === support?.id ? "support" : "other", bookingId: message.bookingId, bookings: [] }],
      );
    }
    if ((isSystem && open === SYSTEM) || (!isSystem && open === other)) {
      setMessages((prev) => mergeMessages(prev, [message]));
      if (message.senderId !== me.id) {
        setTypingUntil(0);
        // Reading it: the conversation call marks it read and pushes the new count.
        loadSelected().catch(fail);
      }
    }
  });

  // A booking the list does not know yet (a request just accepted): its partner joins the list.
  useRealtimeEvent<{ id: number }>("booking.updated", ({ id }) => {
    if (conversations.some((c) => c.bookings.some((b) => b.id === id))) return;
    api
      .get<ConversationInfo[]>("/api/messages/conversations")
      .then((fresh) =>
        setConversations((list) => {
          const known = new Map(fresh.map((c) => [c.user.id, c]));
          // Keep people added on this page (support, new writers) that the server list lacks.
          return [...fresh, ...list.filter((c) => !known.has(c.user.id))];
        }),
      )
      .catch(fail);
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

  // Keep "time only under 24 h" honest on a page left open.
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(t);
  }, []);

  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, typingUntil]);

  const choose = (id: string) => {
    setSelected(id);
    setDraft("");
    if (id !== SYSTEM) window.setTimeout(() => inputRef.current?.focus(), 0);
  };

  const contactSupport = () => {
    if (!support) return;
    setConversations((list) => withSupport(list, support));
    choose(support.id);
  };

  const onDraftChange = (value: string) => {
    setDraft(value);
    if (!current || !value.trim()) return;
    const t = Date.now();
    if (t - lastTypingSent.current >= TYPING_SEND_EVERY_MS && sendFrame({ type: "typing", to: current.user.id })) {
      lastTypingSent.current = t;
    }
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const content = draft.trim();
    if (!current || !content || sending) return;
    setSending(true);
    try {
      const message = await api.post<Message>("/api/messages", {
        receiverId: current.user.id,
        content,
        bookingId: current.bookingId,
      });
      setMessages((prev) => mergeMessages(prev, [message]));
      setDraft("");
    } catch (error) {
      if (isUnauthorizedError(error)) {
        handleLoggedOut();
      } else {
        toast({ title: "Error", description: "Failed to send message. Please try again.", variant: "destructive" });
      }
    } finally {
      setSending(false);
      inputRef.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  };

  const showSystem = unread.systemCount > 0 || selected === SYSTEM;
  const typing = typingUntil > 0; // cleared by the timer above 1 s after the last typing event
  const title = selected === SYSTEM ? "System Notifications" : current ? displayName(current.user) : "";

  return (
    <div className="messages-layout" data-island="messages" data-connected={connected ? "true" : "false"}>
      <div className="messages-side">
        <section className="card conversations" aria-labelledby="conversations-heading">
          <div className="conversations-head">
            <h2 id="conversations-heading">Conversations</h2>
            <UnreadBadge n={unread.count} testId="total-unread" />
          </div>
          {conversations.length === 0 && !showSystem ? (
            <p className="muted">No conversations yet. They appear here once you have a booking.</p>
          ) : (
            <ul className="conversation-list">
              {showSystem && (
                <li>
                  <button
                    type="button"
                    className="conversation"
                    aria-current={selected === SYSTEM ? "true" : undefined}
                    onClick={() => choose(SYSTEM)}
                  >
                    <Avatar person={null} />
                    <span className="conversation-text">
                      <span className="conversation-name">System Notifications</span>
                      <span className="conversation-sub">Updates about your bookings</span>
                    </span>
                    <UnreadBadge n={unread.systemCount} testId="unread-system" />
                  </button>
                </li>
              )}
              {conversations.map((c) => (
                <li key={c.user.id}>
                  <button
                    type="button"
                    className="conversation"
                    aria-current={selected === c.user.id ? "true" : undefined}
                    onClick={() => choose(c.user.id)}
                    data-testid={`conversation-${c.user.id}`}
                  >
                    <Avatar person={c.user} />
                    <span className="conversation-text">
                      <span className="conversation-name">{displayName(c.user)}</span>
                      <span className="conversation-sub">
                        {[ROLE_LABEL[c.role], c.bookings[0]?.title].filter(Boolean).join(" · ")}
                      </span>
                    </span>
                    <UnreadBadge n={unread.bySender[c.user.id] ?? 0} testId={`unread-${c.user.id}`} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card help-card" aria-labelledby="help-heading">
          <h2 id="help-heading">Need Help?</h2>
          <p>Our support team is here for you 24/7. Ask us anything about a booking, a payment or your account.</p>
          {support && (
            <button type="button" className="button button-secondary" onClick={contactSupport}>
              Contact Support
            </button>
          )}
        </section>
      </div>

      <section className="card chat-pane" aria-label={title ? `Conversation with ${title}` : "Conversation"}>
        {!selected ? (
          <div className="chat-empty">
            <h2>Select a Conversation</h2>
            <p className="muted">Choose a conversation from your list to see your messages.</p>
          </div>
        ) : (
          <>
            <header className="chat-head">
              <h2>{title}</h2>
              {current?.bookings[0] && <p className="muted">{current.bookings[0].title}</p>}
              {!connected && (
                <p className="muted chat-status" role="status">
                  Reconnecting... new messages are checked every 5 seconds.
                </p>
              )}
            </header>
            <ol className="chat-log" ref={logRef} aria-live="polite" aria-label="Messages" data-testid="chat-log">
              {loading && messages.length === 0 && <li className="muted">Loading messages...</li>}
              {!loading && messages.length === 0 && <li className="muted">No messages yet. Say hello!</li>}
              {messages.map((m) => {
                const mine = m.senderId === me.id;
                return (
                  <li key={m.id} className={`bubble ${mine ? "bubble-mine" : "bubble-theirs"}`} data-testid="message">
                    <span className="visually-hidden">{mine ? "You" : m.sender ? displayName(m.sender) : "Kindly"}: </span>
                    <span className="bubble-text">{m.content}</span>
                    <time className="bubble-time" dateTime={m.createdAt}>
                      {formatMessageTime(m.createdAt, now)}
                    </time>
                  </li>
                );
              })}
            </ol>
            <p className="typing" aria-live="polite" data-testid="typing">
              {typing && current ? `${current.user.firstName || "They"} is typing...` : ""}
            </p>
            {current && (
              <form className="compose" onSubmit={submit}>
                <label htmlFor="message-input" className="compose-label">
                  Message to {displayName(current.user)}
                </label>
                <textarea
                  id="message-input"
                  ref={inputRef}
                  value={draft}
                  maxLength={maxLength}
                  aria-describedby="message-input-count"
                  rows={2}
                  placeholder="Type your message..."
                  onChange={(e) => onDraftChange(e.target.value)}
                  onKeyDown={onKeyDown}
                />
                <button type="submit" className="button button-primary" disabled={sending || !draft.trim()}>
                  {sending ? "Sending..." : "Send"}
                </button>
                <CharacterCount id="message-input" length={draft.length} max={maxLength} />
              </form>
            )}
          </>
        )}
      </section>
    </div>
  );
}

mountIsland(Messages, "messages-root", "messages-props");
