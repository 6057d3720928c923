// The building block of the form schemas: a field checked by one function that returns its
// message ("" when the value is fine), the way the server's rules are written
// (requests_app/services/rules.py *_problem). One message per field, the first rule that applies, so a
// form shows what the server would answer. zod/mini: the pages ship only the checks they use.
import * as z from "zod/mini";

type Problem<T> = (value: T) => string;

function ruled<T, S extends z.ZodMiniType<T, T>>(schema: S, problem: Problem<T>): S {
  return schema.check(
    z.superRefine((value: T, ctx) => {
      const message = problem(value);
      if (message) ctx.addIssue({ code: "custom", message, input: value });
    }),
  );
}

/** A text field (as the form holds it) and its rule. */
export const text = (problem: Problem<string> = () => "") => ruled(z.string(), problem);

/** A list of chosen ids (checkboxes) and its rule. */
export const choices = (problem: Problem<string[]>) => ruled(z.array(z.string()), problem);
