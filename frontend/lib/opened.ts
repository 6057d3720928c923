// A dialog loaded the first time it is opened (React.lazy), then kept mounted so that focus goes back
// to the button that opened it: most people never open most dialogs, and a page's JavaScript budget
// (100 KB gz) should not carry them (the form library above all).
import { useState } from "react";

/** True from the first time `value` (a dialog's subject, or its open flag) is set. */
export function useOpenedOnce(value: unknown): boolean {
  const [opened, setOpened] = useState(false);
  const open = value != null && value !== false;
  if (open && !opened) setOpened(true);
  return opened || open;
}
