// For the schema tests: what a form would show for some values.
import type * as z from "zod/mini";

/** The first message per field (a nested field by its dotted path), as the form shows them; {} when all is well. */
export function problems(schema: z.ZodMiniType, values: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of schema.safeParse(values).error?.issues ?? []) {
    out[issue.path.join(".")] ??= issue.message;
  }
  return out;
}
