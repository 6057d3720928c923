// Every form's state, in react-hook-form, checked by a zod schema (frontend/lib/schemas/) that
// mirrors the server's rules and words: the one form hook of the pages. By default a field is
// checked as it changes, every field on submit with the focus on the first invalid one, the
// server's 400 field errors shown on their fields, the pending/done state of the submit, its
// toasts and the redirect. The small forms (a dialog's reason, a review, a list's filters, a card
// of the care circle) take `onChange: "none"`, and a dialog `resetOn` its subject.
import { t } from "@lingui/core/macro";
import { useEffect, useMemo, useState, type BaseSyntheticEvent } from "react";
import {
  useForm,
  useWatch,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Path,
  type PathValue,
  type Resolver,
} from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { $ZodType } from "zod/v4/core";
import { ApiError, handleLoggedOut, isUnauthorizedError, redirectAfter } from "./api";
import { toast, type ToastInput } from "./toast";

export type Messages<V> = Partial<Record<keyof V, string>>;

export interface SchemaFormOptions<V extends FieldValues> {
  /** Checks the fields it names (a card of a form may check only some of them). */
  schema: $ZodType<unknown, Partial<NoInfer<V>>>;
  /** The fields' first values. With `resetOn`, a module constant (a new object each render would
   * start the form again each render). */
  defaultValues: V;
  /** The form's fields in display order: the first invalid one gets the focus, and the server's
   * 400 messages show on these. By default the fields of `defaultValues`. */
  fields?: readonly (keyof V & string)[];
  /** The id of the element to focus for a field (its input, or a group's first choice). Without
   * it the focus stays where it is (the form moves it itself). */
  fieldId?: (name: keyof V & string) => string;
  /** "validate": a change shows the field's message at once (the default); "after-submit": the
   * same once the form was first submitted (before that a change says nothing); "clear": a change
   * only takes the field's message away, and the next submit says what is still wrong (sign-in);
   * "none": a change says nothing, the messages of a submit (or of the server) stay until the
   * next one (the dialogs and the small forms). */
  onChange?: "validate" | "after-submit" | "clear" | "none";
  /** A dialog's subject (a booking's id, null when closed): whenever it changes, the fields start
   * again from their defaults. */
  resetOn?: unknown;
}

export interface SubmitOptions<V> {
  /** Sends the form; a rejection is shown as a failure. */
  send: (values: V) => Promise<unknown>;
  success: ToastInput;
  /** The failure toast's description. */
  failure: (error: unknown) => string;
  redirectTo: string;
  redirectMs: number;
  /** Runs after a submit the schema refused (the messages are shown and the focus moved). */
  onInvalid?: (errors: Messages<V>) => void;
}

/** The first message of each field the form shows, from react-hook-form's errors. */
function messagesOf<V>(errors: FieldErrors, fields: readonly (keyof V & string)[]): Messages<V> {
  const out: Messages<V> = {};
  for (const name of fields) {
    const message = errors[name]?.message;
    if (typeof message === "string" && message) out[name] = message;
  }
  return out;
}

export function useSchemaForm<V extends FieldValues>(options: SchemaFormOptions<V>) {
  const { schema, defaultValues, fieldId, onChange = "validate", resetOn } = options;
  const fields = options.fields ?? Object.keys(defaultValues);
  const resets = "resetOn" in options;
  // raw: the form's values as held (the schema checks them; payloads are built from them).
  const resolver = useMemo(() => zodResolver(schema, undefined, { raw: true }) as unknown as Resolver<V>, [schema]);
  const form = useForm<V, unknown, V>({
    resolver,
    defaultValues: defaultValues as DefaultValues<V>,
    mode: "onChange",
    // The focus follows `fields` (display order), not the order fields were first set.
    shouldFocusError: false,
  });
  const [done, setDone] = useState(false);
  // Every field, re-rendering the form as one changes (its inputs are controlled).
  const values = useWatch({ control: form.control }) as V;
  const { errors: found, isSubmitting } = form.formState;
  const errors = messagesOf<V>(found, fields);
  const { reset } = form;
  useEffect(() => {
    if (resets) reset(defaultValues);
  }, [reset, resets, defaultValues, resetOn]);

  const after = (names: Path<V>[]) => {
    if (onChange === "none") return;
    if (onChange === "clear") form.clearErrors(names);
    else if (onChange === "validate" || form.formState.isSubmitted) void form.trigger(names);
  };

  /** Set one field (its message then as `onChange` says). */
  const set = <K extends keyof V & string>(name: K, value: V[K]) => {
    const path = name as string as Path<V>;
    form.setValue(path, value, { shouldDirty: true });
    after([path]);
  };

  /** Set several fields at once (one choice fills another: a recipient, their address), their
   * messages as `onChange` says. */
  const setMany = (changes: Partial<V>) => {
    const names = Object.keys(changes) as Path<V>[];
    for (const name of names) {
      form.setValue(name, changes[name] as PathValue<V, Path<V>>, { shouldDirty: true });
    }
    after(names);
  };

  /** The first message of a field, or "". */
  const error = (name: keyof V & string): string => errors[name] ?? "";

  const focusFirst = (errors: Messages<V>) => {
    const first = fields.find((name) => errors[name]);
    if (first && fieldId) document.getElementById(fieldId(first))?.focus();
  };

  /** A failed call's 400 field errors ({"errors": {field: [...]}}, the API's camelCase names) on
   * the fields the form shows; returns whether there were any. */
  const showServerErrors = (error: unknown): boolean => {
    if (!(error instanceof ApiError)) return false;
    let shown = false;
    for (const [name, messages] of Object.entries(error.fieldErrors)) {
      if ((fields as readonly string[]).includes(name) && messages[0]) {
        form.setError(name as Path<V>, { type: "server", message: messages[0] });
        shown = true;
      }
    }
    return shown;
  };

  /** A submit handler: every field is checked; if one is wrong, its message shows and the first
   * wrong field takes the focus, else `onValid` runs with the values. */
  const handleSubmit = (
    onValid: (values: V) => unknown,
    onInvalid?: (errors: Messages<V>) => void,
  ): ((event?: BaseSyntheticEvent) => Promise<void>) =>
    form.handleSubmit(
      async (checked) => {
        await onValid(checked);
      },
      (invalid) => {
        const shown = messagesOf<V>(invalid, fields);
        focusFirst(shown);
        onInvalid?.(shown);
      },
    );

  /** A submit handler that sends the form: pending while it runs, then the success toast and the
   * redirect; on failure, a lost session goes to /login, else the server's field errors and the
   * failure toast. */
  const submit = ({ send, success, failure, redirectTo, redirectMs, onInvalid }: SubmitOptions<V>) =>
    handleSubmit(async (checked) => {
      try {
        await send(checked);
      } catch (error) {
        if (isUnauthorizedError(error)) {
          handleLoggedOut("/login");
          return;
        }
        showServerErrors(error);
        toast({ title: t`Error`, description: failure(error), variant: "destructive" });
        return;
      }
      setDone(true);
      toast(success);
      redirectAfter(redirectTo, redirectMs);
    }, onInvalid);

  return {
    /** react-hook-form's own methods, for what this hook does not cover. */
    form,
    values,
    errors,
    error,
    set,
    setMany,
    handleSubmit,
    submit,
    showServerErrors,
    focusFirst,
    /** Sending (the submit handler has not finished). */
    submitting: isSubmitting,
    /** Sending, or sent and about to leave the page. */
    pending: isSubmitting || done,
  };
}
