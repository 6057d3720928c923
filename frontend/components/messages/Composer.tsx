// Writing to the open conversation: Enter sends, Shift+Enter starts a new line; empty or
// whitespace-only text is not sent (spec section 5) and Send is disabled while sending.
import { useState, type FormEvent, type KeyboardEvent, type RefObject } from "react";
import { CharacterCount } from "../Field";

export function Composer({
  to,
  maxLength,
  inputRef,
  onSend,
  onTyping,
}: {
  /** The other person's name, for the label. */
  to: string;
  maxLength: number;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** Sends the trimmed text: true once it went (then the draft is cleared), false if not. */
  onSend: (content: string) => Promise<boolean>;
  onTyping: () => void;
}) {
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);

  const onChange = (value: string) => {
    setDraft(value);
    if (value.trim()) onTyping();
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const content = draft.trim();
    if (!content || sending) return;
    setSending(true);
    try {
      if (await onSend(content)) setDraft("");
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

  return (
    <form className="compose" onSubmit={submit}>
      <label htmlFor="message-input" className="compose-label">
        Message to {to}
      </label>
      <textarea
        id="message-input"
        ref={inputRef}
        value={draft}
        maxLength={maxLength}
        aria-describedby="message-input-count"
        rows={2}
        placeholder="Type your message..."
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="button button-primary" disabled={sending || !draft.trim()}>
        {sending ? "Sending..." : "Send"}
      </button>
      <CharacterCount id="message-input" length={draft.length} max={maxLength} />
    </form>
  );
}
