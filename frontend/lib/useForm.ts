// Form state shared by the create forms (request service, provider signup): values, a field
// validated as it changes, every field validated on submit, the server's 400 field errors
// next to their fields, the pending/done state of the submit and its toasts.
import { useState } from "react";
import { ApiError, handleLoggedOut, isUnauthorizedError, redirectAfter } from "./api";
import { toast, type ToastInput } from "./toast";

export type FieldErrors<V> = Partial<Record<keyof V, string>>;

/** The first message per field of a failed call's {"errors": {field: [...]}}, for the fields the
 * form shows (server field errors come keyed by the payload's camelCase names). */
export function serverFieldErrors<V>(error: unknown, fields: readonly (keyof V)[]): FieldErrors<V> {
  if (!(error instanceof ApiError)) return {};
  const out: FieldErrors<V> = {};
  for (const [key, messages] of Object.entries(error.fieldErrors)) {
    if ((fields as readonly PropertyKey[]).includes(key) && messages[0]) out[key as keyof V] = messages[0];
  }
  return out;
}

export interface SubmitOptions {
  /** Sends the form; a rejection is shown as a failure. */
  send: () => Promise<unknown>;
  success: ToastInput;
  /** The failure toast's description. */
  failure: (error: unknown) => string;
  redirectTo: string;
  redirectMs: number;
}

/**
 * `fields` lists the form's fields in display order (the first invalid one gets the focus);
 * `validate(name, values)` returns the field's message, "" when it is valid.
 */
export function useForm<V extends object>(
  initial: V,
  fields: readonly (keyof V)[],
  validate: (name: keyof V, values: V) => string,
) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  /** Set one field and show its message at once. */
  const set = <K extends keyof V>(name: K, value: V[K]) => {
    const next = { ...values, [name]: value };
    setValues(next);
    setErrors((e) => ({ ...e, [name]: validate(name, next) }));
  };

  /** Set several fields at once (one choice fills another: a recipient, their address) and show
   * their messages. */
  const setMany = (changes: Partial<V>) => {
    const next = { ...values, ...changes };
    setValues(next);
    setErrors((e) => {
      const out = { ...e };
      for (const name of Object.keys(changes) as (keyof V)[]) out[name] = validate(name, next);
      return out;
    });
  };

  /** Validate every field and show the messages; returns them and the first invalid field. */
  const validateAll = (): { errors: FieldErrors<V>; first: keyof V | undefined } => {
    const all: FieldErrors<V> = {};
    for (const f of fields) {
      const msg = validate(f, values);
      if (msg) all[f] = msg;
    }
    setErrors(all);
    return { errors: all, first: fields.find((f) => all[f]) };
  };

  /** Send the form: pending while it runs, then the success toast and the redirect; on failure,
   * a lost session goes to /login, else the server's field errors and the failure toast. */
  const submit = async ({ send, success, failure, redirectTo, redirectMs }: SubmitOptions) => {
    setSubmitting(true);
    try {
      await send();
      setDone(true);
      toast(success);
      redirectAfter(redirectTo, redirectMs);
    } catch (error) {
      setSubmitting(false);
      if (isUnauthorizedError(error)) {
        handleLoggedOut("/login");
        return;
      }
      setErrors((e) => ({ ...e, ...serverFieldErrors<V>(error, fields) }));
      toast({ title: "Error", description: failure(error), variant: "destructive" });
    }
  };

  return { values, errors, set, setMany, validateAll, submit, pending: submitting || done };
}
