// The 48-hour rule said before it bites: a visit that starts within the cancellation
// window cannot be cancelled in the app once booked, so the request forms say so as soon as
// such a date is chosen, and say where help is (no link: leaving the form would lose it).
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import "../styles/people.css";

/** From the page's props (requests_app.views._short_notice_props). */
export interface ShortNoticeRules {
  /** now + 48 h as wall-clock time in the site's zone when the page was rendered, "YYYY-MM-DDTHH:MM". */
  cancelCutoff: string;
  cancelWindowHours: number;
  /** When each time window starts, "HH:MM" (the visit start is the date plus this). */
  windowStarts: Record<string, string>;
}

const PAGE_LOADED = Date.now();
const MINUTE_MS = 60_000;

/** The cutoff moved on by the time the page has been open (wall-clock arithmetic, in UTC fields). */
function currentCutoff(rules: ShortNoticeRules, now: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(rules.cancelCutoff);
  if (!m) return rules.cancelCutoff;
  const base = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  return new Date(base + Math.max(0, now - PAGE_LOADED)).toISOString().slice(0, 16);
}

/** Would a visit on this date and time window start within the cancellation window? */
export function isShortNotice(date: string, time: string, rules: ShortNoticeRules, now: number = Date.now()): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const start = rules.windowStarts[time] ?? rules.windowStarts.flexible ?? "08:00";
  return `${date}T${start}` < currentCutoff(rules, now);
}

/** A live region that says, while the chosen date is that close, what it means. */
export function ShortNoticeWarning({ date, time, rules }: { date: string; time: string; rules: ShortNoticeRules }) {
  // Re-evaluated every minute, so a form left open notices the window moving.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), MINUTE_MS);
    return () => window.clearInterval(t);
  }, []);
  const show = isShortNotice(date, time, rules, now);
  const hours = rules.cancelWindowHours;
  return (
    <div role="status" className="short-notice-region">
      {show && (
        <p className="notice" data-testid="short-notice">
          <Trans>
            <strong>This visit is less than {hours} hours away.</strong> Once a helper accepts it, a visit this soon
            cannot be cancelled in the app. If something comes up after that, our support team can help (Messages, then
            Contact Support).
          </Trans>
        </p>
      )}
    </div>
  );
}
