// The messages page's composer (POST /api/messages, messaging/services.py _clean_content): the
// text is sent trimmed, never empty or whitespace only, at most the server's length (the page's
// maxLength prop), with the server's words.
import * as z from "zod/mini";
import { text } from "./rules";

export interface MessageValues {
  content: string;
}

export const EMPTY_MESSAGE = "Message cannot be empty.";

export function contentProblem(content: string, maxLength: number): string {
  const value = content.trim();
  if (!value) return EMPTY_MESSAGE;
  return value.length > maxLength ? `Message can be at most ${maxLength.toLocaleString("en-US")} characters.` : "";
}

export const messageSchema = (maxLength: number) =>
  z.object({ content: text((content) => contentProblem(content, maxLength)) });
