// A request sent to one helper directly ("rebook a helper"): what the asked provider and
// the client's circle are told about it (the provider's "Decline" dialog is DeclineRequestDialog).
// The server decides who sees and may accept it; this only says so.
import { plural, t } from "@lingui/core/macro";
import { intlLocale } from "../lib/i18n";
import { shortDay } from "../lib/series";
import type { Booking, ServiceRequest } from "../lib/types";

/** Where a direct request stands now: "waiting" (only the asked provider may accept, until
 * directUntil), "only" (only them, for good), "declined", "lapsed" (open to all after the window),
 * or null for a request that was not sent to anyone. */
export type DirectState = "waiting" | "only" | "declined" | "lapsed" | null;

export function directState(request: ServiceRequest, now: number = Date.now()): DirectState {
  if (!request.requestedProvider) return null;
  if (request.declinedAt) return "declined";
  if (request.onlyRequestedProvider) return "only";
  return request.directUntil && Date.parse(request.directUntil) > now ? "waiting" : "lapsed";
}

/** "Tue 9:00 AM" (the day and time in the viewer's zone); a date further than a week away gets its date too. */
export function formatUntil(value: string | null | undefined): string {
  if (!value) return "";
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return "";
  const day = d.toLocaleDateString(intlLocale(), { weekday: "short" });
  const time = d.toLocaleTimeString(intlLocale(), { hour: "numeric", minute: "2-digit" });
  return `${day} ${time}`;
}

/** The asked provider's line: "Asked for you" and how long only they may accept. */
export function AskedForYou({ request }: { request: ServiceRequest }) {
  const state = directState(request);
  if (!request.askedYou || request.status !== "open" || (state !== "waiting" && state !== "only")) return null;
  const until = formatUntil(request.directUntil);
  return (
    <p className="direct-note" data-testid="asked-for-you">
      <span className="badge badge-info">{t`Asked for you`}</span>{" "}
      {state === "only" ? t`Only you can accept this request.` : t`Only you can accept until ${until}.`}
    </p>
  );
}

/** The circle's line: to whom it was sent and what came of it (while it is open). */
export function SentToHelper({ request }: { request: ServiceRequest }) {
  const state = directState(request);
  const name = request.requestedProvider?.firstName || t`The helper`;
  if (!state || request.circleRole == null) return null;
  let text = "";
  if (state === "declined") {
    const reason = request.declineReason;
    text = reason ? t`${name} declined: ${reason}` : t`${name} declined.`;
    if (request.status === "open") text += t` Open to all helpers.`;
  } else if (request.status !== "open") {
    return null;
  } else if (state === "waiting") {
    const until = formatUntil(request.directUntil);
    text = t`Sent to ${name} · ${name} has until ${until} to accept.`;
  } else if (state === "only") {
    text = t`Sent to ${name} only.`;
  } else {
    text = t`${name} did not answer in 24 hours. Open to all helpers.`;
  }
  return (
    <p className="direct-note" data-testid="sent-to-helper" data-state={state}>
      {text}
    </p>
  );
}

/** "Book again" on a past (completed) booking, for an organizer of its circle: a new request sent
 * to the same helper, starting from this booking's request (the page fills it in). */
export function BookAgainLink({ booking, describedBy }: { booking: Booking; describedBy?: string }) {
  if (booking.status !== "completed" || booking.circleRole !== "organizer") return null;
  return (
    <a
      className="button button-secondary"
      href={`/request-service?provider=${booking.providerId}&from=${booking.id}`}
      aria-describedby={describedBy}
      data-testid="book-again"
    >
      {t`Book again`}
    </a>
  );
}

/** A day of the asked helper's time off ahead ("YYYY-MM-DD", first to last). */
export interface AwayRange {
  firstDay: string;
  lastDay: string;
}

/** The visit dates ("YYYY-MM-DD") that fall on the helper's time off. */
export function datesAway(dates: string[], away: AwayRange[]): string[] {
  return dates.filter((d) => away.some((a) => a.firstDay <= d && d <= a.lastDay));
}

/** A window of the asked helper's week (weekday 0 = Monday, times "HH:MM"). */
export interface HoursWindow {
  weekday: number;
  startTime: string;
  endTime: string;
}

function minutesOf(value: string): number {
  const [h = 0, m = 0] = value.split(":").map(Number);
  return h * 60 + m;
}

/** The visit dates whose visit (from `start`, "HH:MM", for `minutes`) lies outside every one of her
 * weekly windows that day (none set: she works any time), as providers.selectors.fits_hours reads them. */
export function datesOutsideHours(dates: string[], hours: HoursWindow[], start: string, minutes: number): string[] {
  if (hours.length === 0) return [];
  const from = minutesOf(start);
  const to = from + minutes;
  return dates.filter((d) => {
    const [y = 0, m = 1, day = 1] = d.split("-").map(Number);
    const weekday = (new Date(y, m - 1, day).getDay() + 6) % 7;
    return !hours.some((h) => h.weekday === weekday && minutesOf(h.startTime) <= from && to <= minutesOf(h.endTime));
  });
}

/** The family's warning, before they send a direct request, of the visits the helper cannot make
 * (her time off, or outside her weekly hours): she may accept a series without those dates, and
 * they can choose others. */
export function AwayWarning({
  name,
  dates,
  away,
  outside = [],
}: {
  name: string;
  dates: string[];
  away: AwayRange[];
  /** The dates outside her weekly hours (datesOutsideHours). */
  outside?: string[];
}) {
  const off = datesAway(dates, away);
  const notWorking = outside.filter((d) => !off.includes(d));
  const missed = off.length + notWorking.length;
  if (missed === 0) return null;
  const listed = (days: string[]) => days.map((d) => shortDay(d)).join(", ");
  const all = missed === dates.length;
  const visits = dates.length;
  const offDays = listed(off);
  const notWorkingDays = listed(notWorking);
  return (
    <p className="notice" role="status" data-testid="asked-away">
      {off.length > 0 && t`${name} is away (time off) on ${offDays}. `}
      {notWorking.length > 0 && t`${name} does not work at that time on ${notWorkingDays}. `}
      {all
        ? plural(visits, {
            one: `${name} cannot make this visit: please choose other dates or times, or send it to all helpers.`,
            other: `${name} cannot make these visits: please choose other dates or times, or send it to all helpers.`,
          })
        : plural(missed, {
            one: `${name} can accept the other visits without that date, and you will be told; or choose other dates.`,
            other: `${name} can accept the other visits without those dates, and you will be told; or choose other dates.`,
          })}
    </p>
  );
}
