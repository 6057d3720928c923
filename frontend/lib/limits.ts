// A form's limits as the server gives them in the page's props (core.api.input_limits):
// the same numbers and the same words the API answers with, so form and server cannot drift.

export interface FieldLimit {
  minLength?: number;
  minLengthMessage?: string;
  maxLength?: number;
  maxLengthMessage?: string;
  min?: number;
  minMessage?: string;
  max?: number;
  maxMessage?: string;
}

export type Limits = Partial<Record<string, FieldLimit>>;

/** The message for a text longer than its limit (as sent: trimmed), else "". */
export function textTooLong(limit: FieldLimit | undefined, value: string): string {
  if (limit?.maxLength === undefined || value.trim().length <= limit.maxLength) return "";
  return limit.maxLengthMessage ?? "";
}

/** The message for a number above its limit, else "". */
export function numberTooLarge(limit: FieldLimit | undefined, value: number): string {
  if (limit?.max === undefined || !(value > limit.max)) return "";
  return limit.maxMessage ?? "";
}

/** A server message with its blanks filled: fill("Note can be at most {max}.", { max: 200 }). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}
