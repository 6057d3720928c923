// The open conversation's messages, oldest first, kept scrolled to the newest, and the typing
// indicator. Spec: a message under 24 hours old shows its time only, otherwise date and time, on
// the clock of the person cared for (named when the viewer's differs; support's on the viewer's).
// In a pair's conversation (several people) every message shows who sent it, and a divider names
// the visit the messages below it are about ("Visit Tue, Dec 2, 2026 · Technology Support").
import { t } from "@lingui/core/macro";
import { Fragment, useEffect, useRef, useState } from "react";
import { formatDate, formatMessageTime } from "../../lib/format";
import { displayName, type BookingRef, type Message, type Person } from "../../lib/useConversation";

/** The sender of a message from no one (a notice): the brand, the same in every language. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- a name, not a word to translate
const BRAND = "Kindly";

export function visitLabel(visit: BookingRef): string {
  const day = formatDate(visit.scheduledDate);
  return [t`Visit ${day}`, visit.title].filter(Boolean).join(" · ");
}

export function Thread({
  me,
  messages,
  loading,
  typingName,
  showSenders = false,
  visits = [],
  timeZone,
}: {
  /** The zone of the person the conversation is about: its times are read on her clock. */
  timeZone?: string | null;
  /** The visits of the conversation: each message's visit is marked where it changes. */
  visits?: BookingRef[];
  me: Person;
  messages: Message[];
  loading: boolean;
  /** Show each message's sender (a thread of a care circle and its provider). */
  showSenders?: boolean;
  /** Who is typing right now (first name), or "" when nobody is. */
  typingName: string;
}) {
  const logRef = useRef<HTMLDivElement>(null);
  const [now, setNow] = useState(() => Date.now());

  // Keep "time only under 24 h" honest on a page left open.
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);

  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, typingName]);

  return (
    <>
      {/* A focusable region: a keyboard scrolls back through a long conversation. */}
      <div className="chat-scroll" ref={logRef} role="region" aria-label={t`Conversation messages`} tabIndex={0}>
        <ol className="chat-log" aria-live="polite" aria-label={t`Messages`} data-testid="chat-log">
          {loading && messages.length === 0 && <li className="muted">{t`Loading messages...`}</li>}
          {!loading && messages.length === 0 && <li className="muted">{t`No messages yet. Say hello!`}</li>}
          {messages.map((m, i) => {
            const mine = m.senderId === me.id;
            const who = mine ? t`You` : m.sender ? displayName(m.sender) : BRAND;
            const visit =
              m.bookingId !== messages[i - 1]?.bookingId ? visits.find((v) => v.id === m.bookingId) : undefined;
            return (
              <Fragment key={m.id}>
                {visit && (
                  <li className="chat-visit" data-testid="visit-divider">
                    {visitLabel(visit)}
                  </li>
                )}
                <li className={`bubble ${mine ? "bubble-mine" : "bubble-theirs"}`} data-testid="message">
                  {showSenders ? (
                    <span className="bubble-sender" data-testid="message-sender">
                      {who}
                      <span className="visually-hidden">: </span>
                    </span>
                  ) : (
                    <span className="visually-hidden">{who}: </span>
                  )}
                  <span className="bubble-text">{m.content}</span>
                  <time className="bubble-time" dateTime={m.createdAt}>
                    {formatMessageTime(m.createdAt, now, timeZone)}
                  </time>
                </li>
              </Fragment>
            );
          })}
        </ol>
      </div>
      <p className="typing" aria-live="polite" data-testid="typing">
        {typingName ? t`${typingName} is typing...` : ""}
      </p>
    </>
  );
}
