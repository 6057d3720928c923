// The messages page's composer (POST /api/messages, messaging/services.py _clean_content): the
// text is sent trimmed, never empty or whitespace only, at most the server's length (the page's
// maxLength prop), with the server's words.
import * as z from "zod/mini";
import { fill } from "../limits";
import { RULES } from "../rules.generated";
import { text } from "./rules";

export interface MessageValues {
  content: string;
}

export const EMPTY_MESSAGE = RULES.message.CONTENT_EMPTY;

export function contentProblem(content: string, maxLength: number): string {
  const value = content.trim();
  if (!value) return EMPTY_MESSAGE;
  return value.length > maxLength
    ? fill(RULES.message.CONTENT_TOO_LONG_TEMPLATE, { max: maxLength.toLocaleString("en-US") })
    : "";
}

export const messageSchema = (maxLength: number) =>
  z.object({ content: text((content) => contentProblem(content, maxLength)) });
