// /settings "Close my account": the confirmation typed in the dialog (accounts
// account_close: the word CLOSE in any case, trimmed; anything else is refused in these words).
import * as z from "zod/mini";
import { RULES } from "../rules.generated";
import { text } from "./rules";

export const { CONFIRM_WORD, CONFIRM_MESSAGE } = RULES.account;

export interface CloseAccountValues {
  confirm: string;
}

export const closeAccountSchema = z.object({
  confirm: text((v) => (v.trim().toUpperCase() === CONFIRM_WORD ? "" : CONFIRM_MESSAGE)),
});
