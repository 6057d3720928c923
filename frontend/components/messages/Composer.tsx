// Writing to the open conversation: Enter sends, Shift+Enter starts a new line; empty or
// whitespace-only text is not sent (spec section 5) and Send is disabled while sending.
import { t } from "@lingui/core/macro";
import { useMemo, type FormEvent, type KeyboardEvent, type RefObject } from "react";
import { useSchemaForm } from "../../lib/forms";
import { contentProblem, messageSchema, type MessageValues } from "../../lib/schemas/message";
import { CharacterCount } from "../Field";

const EMPTY_DRAFT: MessageValues = { content: "" };

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
  const schema = useMemo(() => messageSchema(maxLength), [maxLength]);
  // The draft is checked on Send (which is disabled while it could not be sent): no message shows,
  // and the focus stays in the text box.
  const {
    values,
    set,
    handleSubmit,
    submitting: sending,
  } = useSchemaForm<MessageValues>({ schema, defaultValues: EMPTY_DRAFT, onChange: "none" });
  const draft = values.content ?? "";

  const onChange = (value: string) => {
    set("content", value);
    if (value.trim()) onTyping();
  };

  const send = async ({ content }: MessageValues) => {
    try {
      if (await onSend(content.trim())) set("content", "");
    } finally {
      inputRef.current?.focus();
    }
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (sending) return;
    void handleSubmit(send)();
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
        {t`Message to ${to}`}
      </label>
      <textarea
        id="message-input"
        ref={inputRef}
        value={draft}
        maxLength={maxLength}
        aria-describedby="message-input-count"
        rows={2}
        placeholder={t`Type your message...`}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <button
        type="submit"
        className="button button-primary"
        disabled={sending || Boolean(contentProblem(draft, maxLength))}
      >
        {sending ? t`Sending...` : t`Send`}
      </button>
      <CharacterCount id="message-input" length={draft.length} max={maxLength} />
    </form>
  );
}
