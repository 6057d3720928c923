// Messages page (spec "Messages page"): conversations on the left, the chat pane on the right.
// One conversation per care recipient and provider pair (the provider and the recipient's whole
// care circle; the pane says who it is for, each message names its sender and each visit of the
// pair is marked inside it), plus support.
// Server state is TanStack Query's (lib/query), seeded by the page's props and kept live by the
// page's websocket (lib/realtime); while it is down, the open conversation and the unread count
// are polled every 5 s (spec section 9). The open conversation lives in
// lib/useConversation; the list, the thread and the composer in components/messages/.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError, api, isUnauthorizedError } from "../lib/api";
import { mountQueryIsland, usePollWhileDisconnected, useSeededQuery } from "../lib/query";
import { useConnected, useRealtimeEvent } from "../lib/realtime";
import type { UnreadCount } from "../lib/types";
import { toast } from "../lib/toast";
import {
  POLL_MS,
  SYSTEM,
  UNREAD_COUNT,
  conversationKey,
  conversationName,
  displayName,
  hasVisit,
  messageKey,
  threadBookingId,
  threadKey,
  useConversation,
  type ConversationInfo,
  type Person,
} from "../lib/useConversation";
import { Composer } from "../components/messages/Composer";
import { ConversationList } from "../components/messages/ConversationList";
import { Thread } from "../components/messages/Thread";
import { SupportContacts, type SupportContactsInfo } from "../components/SupportContacts";

interface MessagesProps {
  me: Person & { isAdmin: boolean };
  conversations: ConversationInfo[];
  support: Person | null;
  supportContacts: SupportContactsInfo;
  unread: UnreadCount;
  maxLength: number;
}

/** ?booking=<id> opens that booking's thread; ?with=<user id> the (newest) conversation with that
 * person; ?with=support the support one (links from the dashboard and the request page, e.g. a
 * booking inside the 48-hour window). */
function wantedConversation(): string | null {
  const params = new URLSearchParams(window.location.search);
  const booking = Number(params.get("booking"));
  if (Number.isInteger(booking) && booking > 0) return threadKey(booking);
  return params.get("with");
}

function initialSelection(list: ConversationInfo[], support: Person | null): string | null {
  const wanted = wantedConversation();
  if (wanted === "support") return support?.id ?? null;
  if (!wanted) return null;
  const booking = threadBookingId(wanted);
  const found =
    (booking !== null ? list.find((c) => hasVisit(c, booking)) : undefined) ??
    list.find((c) => conversationKey(c) === wanted) ??
    list.find((c) => c.user.id === wanted);
  return found ? conversationKey(found) : null;
}

function withSupport(list: ConversationInfo[], support: Person | null): ConversationInfo[] {
  if (!support || list.some((c) => !c.thread && c.user.id === support.id)) return list;
  return [...list, { user: support, role: "support", bookingId: null, thread: false, recipient: null, bookings: [] }];
}

const CONVERSATIONS = "/api/messages/conversations";

function Messages({
  me,
  conversations: initialConversations,
  support,
  supportContacts,
  unread: initialUnread,
  maxLength,
}: MessagesProps) {
  const client = useQueryClient();
  // The list: the server's, plus people added on this page (support, new writers) that it lacks.
  const [seed] = useState(() =>
    wantedConversation() === "support" ? withSupport(initialConversations, support) : initialConversations,
  );
  const { data: conversations } = useQuery({
    queryKey: [CONVERSATIONS],
    queryFn: async () => {
      const fresh = await api.get<ConversationInfo[]>(CONVERSATIONS);
      const known = new Set(fresh.map(conversationKey));
      const list = client.getQueryData<ConversationInfo[]>([CONVERSATIONS]) ?? [];
      return [...fresh, ...list.filter((c) => !known.has(conversationKey(c)))];
    },
    initialData: seed,
  });
  const setConversations = useCallback(
    (update: (list: ConversationInfo[]) => ConversationInfo[]) =>
      client.setQueryData<ConversationInfo[]>([CONVERSATIONS], (list) => update(list ?? [])),
    [client],
  );
  // Polling fallback while the socket is down (and one catch-up each time it comes back).
  const { data: unread } = useSeededQuery<UnreadCount>(UNREAD_COUNT, initialUnread, {
    refetchInterval: usePollWhileDisconnected([[UNREAD_COUNT]], POLL_MS),
  });
  const [selected, setSelected] = useState<string | null>(() => initialSelection(initialConversations, support));
  // Choosing a conversation (again) starts a fresh draft.
  const [composerKey, setComposerKey] = useState(0);
  const connected = useConnected();
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const current = useMemo(
    () =>
      selected && selected !== SYSTEM ? (conversations.find((c) => conversationKey(c) === selected) ?? null) : null,
    [conversations, selected],
  );

  const selectedRef = useRef(selected);
  useEffect(() => {
    selectedRef.current = selected;
  }, [selected]);

  // A pair's key is the visit its new messages are about: a visit booked since the page loaded
  // may take that place. The open conversation follows it (the same one, by any of its visits).
  useEffect(() => {
    const booking = threadBookingId(selected);
    if (booking === null || conversations.some((c) => conversationKey(c) === selected)) return;
    const found = conversations.find((c) => hasVisit(c, booking));
    if (found) setSelected(conversationKey(found));
  }, [conversations, selected]);

  // A lost session is lib/query's (one toast, one redirect).
  const fail = useCallback(
    (error: unknown) => {
      // A thread the user no longer takes part in (they left the care circle): it leaves the list.
      const open = selectedRef.current;
      if (error instanceof ApiError && error.status === 404 && threadBookingId(open) !== null) {
        setConversations((list) => list.filter((c) => conversationKey(c) !== open));
        setSelected(null);
        toast({ title: t`Conversation closed`, description: t`You are no longer part of this conversation.` });
      }
    },
    [setConversations],
  );

  const conversation = useConversation({ me, selected, current, fail });

  useRealtimeEvent("unread.count", (count) => client.setQueryData([UNREAD_COUNT], count));

  // Fetch the list again (a booking or a thread the page does not know yet).
  const refreshList = () => void client.invalidateQueries({ queryKey: [CONVERSATIONS] });

  // Someone new wrote (support, or a thread made after the page loaded): they join the list.
  useRealtimeEvent("message.created", (message) => {
    const key = messageKey(message, me.id, conversations);
    if (message.senderId === SYSTEM || conversations.some((c) => conversationKey(c) === key) || !message.sender) {
      return;
    }
    if (message.thread) {
      refreshList();
      return;
    }
    const sender = message.sender;
    setConversations((list) =>
      list.some((c) => conversationKey(c) === key)
        ? list
        : [
            ...list,
            {
              user: sender,
              role: sender.id === support?.id ? "support" : "other",
              bookingId: message.bookingId,
              thread: false,
              recipient: null,
              bookings: [],
            },
          ],
    );
  });

  // A booking the list does not know yet (a request just accepted): its thread joins the list.
  useRealtimeEvent("booking.updated", ({ id }) => {
    if (conversations.some((c) => c.bookings.some((b) => b.id === id))) return;
    refreshList();
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

  const recipientName = current?.recipient?.fullName ?? "";
  const forWhom = current?.thread && current.recipient ? t`For ${recipientName}` : "";

  const send = async (content: string): Promise<boolean> => {
    try {
      await conversation.send(content);
      return true;
    } catch (error) {
      // A lost session is lib/query's.
      if (!isUnauthorizedError(error)) {
        toast({ title: t`Error`, description: t`Failed to send message. Please try again.`, variant: "destructive" });
      }
      return false;
    }
  };

  const showSystem = unread.systemCount > 0 || selected === SYSTEM;
  const title = selected === SYSTEM ? t`System Notifications` : current ? conversationName(current) : "";
  // In a thread, the name the typing event carries; otherwise the person's first name.
  const typingName = !conversation.typing
    ? ""
    : current?.thread
      ? conversation.typingName
      : current
        ? current.user.firstName || t`They`
        : "";

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
          <h2 id="help-heading">
            <Trans>Need Help?</Trans>
          </h2>
          <p>
            <Trans>Our support team is here for you. Ask us anything about a booking, a payment or your account.</Trans>
          </p>
          {support && (
            <button type="button" className="button button-secondary" onClick={contactSupport}>
              <Trans>Contact Support</Trans>
            </button>
          )}
          <SupportContacts contacts={supportContacts} />
        </section>
      </div>

      <section className="card chat-pane" aria-label={title ? t`Conversation with ${title}` : t`Conversation`}>
        {!selected ? (
          <div className="chat-empty">
            <h2>
              <Trans>Select a Conversation</Trans>
            </h2>
            <p className="muted">
              <Trans>Choose a conversation from your list to see your messages.</Trans>
            </p>
          </div>
        ) : (
          <>
            <header className="chat-head">
              <h2>{title}</h2>
              {forWhom && (
                <p className="chat-for" data-testid="chat-for">
                  {forWhom}
                </p>
              )}
              {current?.thread && current.bookings.length > 1 ? (
                <p className="muted">
                  {plural(current.bookings.length, {
                    one: "# visit, marked below",
                    other: "# visits, each marked below",
                  })}
                </p>
              ) : (
                current?.bookings[0] && <p className="muted">{current.bookings[0].title}</p>
              )}
              {!connected && (
                <p className="muted chat-status" role="status">
                  <Trans>Reconnecting... new messages are checked every 5 seconds.</Trans>
                </p>
              )}
            </header>
            <Thread
              me={me}
              messages={conversation.messages}
              loading={conversation.loading}
              typingName={typingName}
              showSenders={Boolean(current?.thread)}
              visits={current?.thread ? current.bookings : []}
              timeZone={current?.thread ? current.recipient?.timeZone : null}
            />
            {current && (
              <Composer
                key={composerKey}
                to={
                  current.thread && current.recipient
                    ? `everyone in the conversation for ${current.recipient.fullName}`
                    : displayName(current.user)
                }
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

mountQueryIsland(Messages, "messages");
