// The pieces of the /login card: the failure shown next to the form, the Google mark, a labelled
// input, and what the card says about where signing in leads.
import { t } from "@lingui/core/macro";
import type { RefObject } from "react";
import { Field } from "../../components/Field";

export interface Failure {
  title: string;
  description: string;
}

// What the page asked for, said on the card, so the person knows where signing in leads.
const JOIN_PREFIX = "/care-circle/join/";

/** What happens after signing in, when `next` leads somewhere worth saying (an invitation's join page). */
export function nextNoteFor(next: string): string | undefined {
  const path = next.split("?")[0] ?? "";
  if (path.startsWith(JOIN_PREFIX)) return t`Next, you'll come back to your invitation to join the care circle.`;
  const notes: Record<string, string> = {
    "/request-service": t`Next, you'll tell us what help you need.`,
    "/provider-signup": t`Next, you'll fill in your application to become a provider.`,
  };
  return notes[path];
}

/** The failure of the last attempt, in the card next to the form; announced when it appears. */
export function FormAlert({
  failure,
  alertRef,
}: {
  failure: Failure | null;
  alertRef: RefObject<HTMLDivElement | null>;
}) {
  return (
    <div ref={alertRef} role="alert" className="form-alert" data-testid="login-error">
      {failure && (
        <>
          <p className="form-alert-title">{failure.title}</p>
          <p className="form-alert-text">{failure.description}</p>
        </>
      )}
    </div>
  );
}

export function GoogleIcon() {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 48 48" focusable="false">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}

/** A labelled input of this card: its message under it, marked required for assistive tech. */
export function LoginInput(props: {
  id: string;
  label: string;
  type: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  error?: string;
  hint?: string;
  disabled?: boolean;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error} hint={props.hint}>
      {(control) => (
        <input
          {...control}
          type={props.type}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          autoComplete={props.autoComplete}
          aria-required="true"
          disabled={props.disabled}
          spellCheck={props.type === "text" ? undefined : false}
        />
      )}
    </Field>
  );
}
