// Messages page (spec "Messages page"): conversations on the left, the chat pane on the right.
// Live over the page's websocket (lib/realtime); while it is down, the open conversation and
// the unread count are polled every 5 s (spec section 9). The open conversation lives in
// lib/useConversation; the list, the thread and the composer in components/messages/.
import { useCallback, useMemo, useRef, useState } from "react";
import { api, handleLoggedOut, isUnauthorizedError } from "../lib/api";
import { mountIsland } from "../lib/mount";
import { useConnected, usePollingFallback, useRealtimeEvent } from "../lib/realtime";
import type { UnreadCount } from "../lib/types";
import { toast } from "../lib/toast";
import {
  POLL_MS,
  SYSTEM,
  displayName,
  useConversation,
  type ConversationInfo,
  type Message,
  type Person,
} from "../lib/useConversation";
import { Composer } from "../components/messages/Composer";
import { ConversationList } from "../components/messages/ConversationList";
import { Thread } from "../components/messages/Thread";

interface MessagesProps {
  me: Person & { isAdmin: boolean };
  conversations: ConversationInfo[];
  support: Person | null;
  unread: UnreadCount;
  maxLength: number;
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

function Messages({
  me,
  conversations: initialConversations,
  support,
  unread: initialUnread,
  maxLength,
}: MessagesProps) {
  const [conversations, setConversations] = useState<ConversationInfo[]>(() =>
    wantedConversation() === "support" ? withSupport(initialConversations, support) : initialConversations,
  );
  const [unread, setUnread] = useState<UnreadCount>(initialUnread);
  const [selected, setSelected] = useState<string | null>(() => {
    const wanted = wantedConversation();
    if (wanted === "support") return support?.id ?? null;
    return wanted && initialConversations.some((c) => c.user.id === wanted) ? wanted : null;
  });
  // Choosing a conversation (again) starts a fresh draft.
  const [composerKey, setComposerKey] = useState(0);
  const connected = useConnected();
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const current = useMemo(
    () => (selected && selected !== SYSTEM ? (conversations.find((c) => c.user.id === selected) ?? null) : null),
    [conversations, selected],
  );

  const fail = useCallback((error: unknown) => {
    if (isUnauthorizedError(error)) handleLoggedOut();
  }, []);

  const conversation = useConversation({ me, selected, current, fail });

  const refreshUnread = useCallback(async () => {
    setUnread(await api.get<UnreadCount>("/api/messages/unread-count"));
  }, []);

  // Polling fallback while the socket is down (and one catch-up each time it comes back).
  usePollingFallback(() => {
    refreshUnread().catch(fail);
  }, POLL_MS);

  useRealtimeEvent<UnreadCount>("unread.count", setUnread);

  // Someone new wrote (support, or a booking made after the page loaded): they join the list.
  useRealtimeEvent<Message>("message.created", (message) => {
    const other = message.senderId === me.id ? message.receiverId : message.senderId;
    if (message.senderId === SYSTEM || conversations.some((c) => c.user.id === other) || !message.sender) return;
    const sender = message.sender;
    setConversations((list) =>
      list.some((c) => c.user.id === other)
        ? list
        : [
            ...list,
            {
              user: sender,
              role: sender.id === support?.id ? "support" : "other",
              bookingId: message.bookingId,
              bookings: [],
            },
          ],
    );
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

  const choose = (id: string) => {
    setSelected(id);
    setComposerKey((k) => k + 1);
    if (id !== SYSTEM) window.setTimeout(() => inputRef.current?.focus(), 0);
  };

  const contactSupport = () => {
    if (!support) return;
    setConversations((list) => withSupport(list, support));
    choose(support.id);
  };

  const send = async (content: string): Promise<boolean> => {
    try {
      await conversation.send(content);
      return true;
    } catch (error) {
      if (isUnauthorizedError(error)) {
        handleLoggedOut();
      } else {
        toast({ title: "Error", description: "Failed to send message. Please try again.", variant: "destructive" });
      }
      return false;
    }
  };

  const showSystem = unread.systemCount > 0 || selected === SYSTEM;
  const title = selected === SYSTEM ? "System Notifications" : current ? displayName(current.user) : "";

  return (
    <div className="messages-layout" data-island="messages" data-connected={connected ? "true" : "false"}>
      <div className="messages-side">
        <ConversationList
          conversations={conversations}
          unread={unread}
          selected={selected}
          showSystem={showSystem}
          onChoose={choose}
        />
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
            <Thread
              me={me}
              messages={conversation.messages}
              loading={conversation.loading}
              typingName={conversation.typing && current ? current.user.firstName || "They" : ""}
            />
            {current && (
              <Composer
                key={composerKey}
                to={displayName(current.user)}
                maxLength={maxLength}
                inputRef={inputRef}
                onSend={send}
                onTyping={conversation.notifyTyping}
              />
            )}
          </>
        )}
      </section>
    </div>
  );
}

mountIsland(Messages, "messages-root", "messages-props");
