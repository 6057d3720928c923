// The small forms (a dialog's reason, a review, a visit report, a list's filters): their fields in
// react-hook-form, checked by a zod schema (lib/schemas/) on submit, and set back to their
// defaults when the dialog turns to another subject (another booking, another provider). The
// inputs are controlled: `values` re-renders the form as a field changes. Unlike lib/forms.ts, a
// change says nothing by itself: messages come from the submit (or the server) and stay until
// the next one, as these forms always did.
import { useEffect, useMemo } from "react";
import { useForm, useWatch, type DefaultValues, type FieldValues, type Path, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { $ZodType } from "zod/v4/core";

export function useDialogForm<V extends FieldValues>(
  schema: $ZodType<unknown, NoInfer<V>>,
  /** Module constants (a new object each render would reset the form each render). */
  defaultValues: V,
  /** When this changes (the booking's id, null when closed), the fields start again from their defaults. */
  subject?: unknown,
) {
  // raw: the values as held (payloads are built from them, trimmed where the server trims).
  const resolver = useMemo(() => zodResolver(schema, undefined, { raw: true }) as unknown as Resolver<V>, [schema]);
  const form = useForm<V, unknown, V>({
    resolver,
    defaultValues: defaultValues as DefaultValues<V>,
    // Each form moves the focus itself (to the field its users expect).
    shouldFocusError: false,
  });
  const values = useWatch({ control: form.control }) as V;
  const { reset } = form;
  useEffect(() => {
    reset(defaultValues);
  }, [reset, defaultValues, subject]);

  /** Set one field (its message, if any, stays until the next submit). */
  const set = <K extends keyof V & string>(name: K, value: V[K]) => {
    form.setValue(name as string as Path<V>, value, { shouldDirty: true });
  };

  /** The first message of a field, or "". */
  const error = (name: keyof V & string): string => {
    const message = form.formState.errors[name]?.message;
    return typeof message === "string" ? message : "";
  };

  return { form, values, set, error, submitting: form.formState.isSubmitting };
}
