// The messages page's list of conversations: System Notifications (only while it has unread
// notices, or is open), then one per care recipient and provider pair, whatever the number of
// visits (a provider sees it named after the person the help is for, a member of the care circle
// sees the provider and "For <recipient>"), then support; each with its unread count (a pair's:
// the sum over its visits).
import { plural, t } from "@lingui/core/macro";
import type { UnreadCount } from "../../lib/types";
import { SYSTEM, conversationKey, conversationName, type ConversationInfo } from "../../lib/useConversation";
import { Avatar } from "../Avatar";
import { UnreadBadge } from "../UnreadBadge";

/** The other person's part, read when shown (in the page's language). */
function roleLabel(role: ConversationInfo["role"]): string {
  if (role === "provider") return t`Provider`;
  if (role === "client") return t`Client`;
  if (role === "support") return t`Support`;
  return "";
}

export function ConversationList({
  conversations,
  unread,
  selected,
  showSystem,
  onChoose,
}: {
  conversations: ConversationInfo[];
  unread: UnreadCount;
  selected: string | null;
  showSystem: boolean;
  onChoose: (id: string) => void;
}) {
  return (
    <section className="card conversations" aria-labelledby="conversations-heading">
      <div className="conversations-head">
        <h2 id="conversations-heading">{t`Conversations`}</h2>
        <UnreadBadge count={unread.count} testId="total-unread" />
      </div>
      {conversations.length === 0 && !showSystem ? (
        <p className="muted">{t`No conversations yet. They appear here once you have a booking.`}</p>
      ) : (
        <ul className="conversation-list">
          {showSystem && (
            <li>
              <button
                type="button"
                className="conversation"
                aria-current={selected === SYSTEM ? "true" : undefined}
                onClick={() => onChoose(SYSTEM)}
              >
                <Avatar letter="!" />
                <span className="conversation-text">
                  <span className="conversation-name">{t`System Notifications`}</span>
                  <span className="conversation-sub">{t`Updates about your bookings`}</span>
                </span>
                <UnreadBadge count={unread.systemCount} testId="unread-system" />
              </button>
            </li>
          )}
          {conversations.map((c) => {
            const key = conversationKey(c);
            const name = conversationName(c);
            const recipientName = c.recipient?.fullName;
            const forWhom = c.thread && c.role !== "client" && recipientName ? t`For ${recipientName}` : "";
            const visitCount = c.bookings.length;
            const count = c.thread
              ? c.bookings.reduce((sum, b) => sum + (unread.byBooking[String(b.id)] ?? 0), 0)
              : (unread.bySender[c.user.id] ?? 0);
            return (
              <li key={key}>
                <button
                  type="button"
                  className="conversation"
                  aria-current={selected === key ? "true" : undefined}
                  onClick={() => onChoose(key)}
                  data-testid={`conversation-${key}`}
                >
                  <Avatar firstName={name} imageUrl={c.role === "client" ? undefined : c.user.profileImageUrl} />
                  <span className="conversation-text">
                    <span className="conversation-name">{name}</span>
                    {/* The visits: one conversation holds every visit of the pair. */}
                    {c.thread && c.bookings[0]?.title && (
                      <span className="conversation-topic">
                        {visitCount > 1
                          ? plural(visitCount, { one: "# visit", other: "# visits" })
                          : c.bookings[0].title}
                      </span>
                    )}
                    <span className="conversation-sub">
                      {[roleLabel(c.role), forWhom, c.thread ? "" : c.bookings[0]?.title].filter(Boolean).join(" · ")}
                    </span>
                  </span>
                  <UnreadBadge count={count} testId={`unread-${key}`} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
