// Formatting shared by the islands: money, dates in the page's language (lib/i18n.ts intlLocale:
// Intl's en-US or es-US), the spec's option labels as Lingui messages.
import { plural as pluralMessage, t } from "@lingui/core/macro";
import { intlLocale } from "./i18n";
import type {
  BookingStatus,
  Money,
  RequestStatus,
  SpecialtyId,
  TimeWindow,
  Urgency,
  VerificationStatus,
} from "./types";

/** "$30.00" (US dollars, two decimals, in both languages), from the API's number or a page prop's "30.00".
 * Empty or invalid values give "". */
export function formatMoney(value: Money | string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) return "";
  return new Intl.NumberFormat(intlLocale(), { style: "currency", currency: "USD" }).format(n);
}

/** A "YYYY-MM-DD" date as a calendar day (never shifted by the browser's zone). */
export function parseDateOnly(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

/** A date in the page's language, e.g. "Mon, Nov 23, 2026" ("mar, 24 de nov de 2026"). Accepts "YYYY-MM-DD" or an ISO datetime. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  const d = value.length <= 10 ? parseDateOnly(value) : new Date(value);
  if (!d || Number.isNaN(d.getTime())) return "";
  return d.toLocaleDateString(intlLocale(), { weekday: "short", year: "numeric", month: "short", day: "numeric" });
}

/** A moment in the user's locale with its time, e.g. "Nov 23, 2026, 3:05 PM". */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return "";
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(intlLocale(), {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
}

/** Today as "YYYY-MM-DD" in the browser's zone (min of date inputs). */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

// The tables' words are getters: read when shown, in the page's language (not when the module loads).
export const TIME_WINDOWS: { value: TimeWindow; readonly label: string }[] = [
  {
    value: "morning",
    get label() {
      return t`Morning (8AM - 12PM)`;
    },
  },
  {
    value: "afternoon",
    get label() {
      return t`Afternoon (12PM - 5PM)`;
    },
  },
  {
    value: "evening",
    get label() {
      return t`Evening (5PM - 8PM)`;
    },
  },
  {
    value: "flexible",
    get label() {
      return t`Flexible`;
    },
  },
];

export function timeWindowLabel(value: string | null | undefined): string {
  if (!value) return "";
  return TIME_WINDOWS.find((w) => w.value === value)?.label ?? value;
}

/** A visit window as the family was told it, "Afternoon (12PM - 5PM)", on the clock of the person
 * cared for: with her zone (recipient.timeZone) and the day, named when the viewer's clock reads
 * otherwise that day, "Afternoon (12PM - 5PM) Central Time". */
export function windowLabel(
  time: string | null | undefined,
  date?: string | null,
  timeZone?: string | null,
  viewerZone: string = viewerTimeZone(),
): string {
  const window = timeWindowLabel(time);
  if (!window || time === "flexible" || !timeZone || !date) return window;
  // Noon UTC of that day: the two clocks' difference then is the day's.
  const noon = `${date.slice(0, 10)}T12:00:00Z`;
  const same = formatClock(noon, timeZone, viewerZone) === formatClock(noon, timeZone, timeZone);
  return same ? window : `${window} ${zoneName(timeZone, new Date(noon))}`;
}

/** A booking's "date and time": "Mon, Nov 23, 2026 · Morning (8AM - 12PM)" (windowLabel: with
 * the recipient's zone, named when the viewer's differs). */
export function formatVisit(
  date: string | null | undefined,
  time: string | null | undefined,
  timeZone?: string | null,
  viewerZone: string = viewerTimeZone(),
): string {
  return [formatDate(date), windowLabel(time, date, timeZone, viewerZone)].filter(Boolean).join(" · ");
}

/** Urgency options with the spec's explanations (section 9). */
export const URGENCIES: { value: Urgency; readonly label: string; readonly explanation: string }[] = [
  {
    value: "low",
    get label() {
      return t`Low`;
    },
    get explanation() {
      return t`Can wait a week or more`;
    },
  },
  {
    value: "normal",
    get label() {
      return t`Normal`;
    },
    get explanation() {
      return t`Within a few days`;
    },
  },
  {
    value: "high",
    get label() {
      return t`High`;
    },
    get explanation() {
      return t`Within 24 hours`;
    },
  },
  {
    value: "urgent",
    get label() {
      return t`Urgent`;
    },
    get explanation() {
      return t`ASAP`;
    },
  },
];

export function urgencyLabel(value: string | null | undefined): string {
  return URGENCIES.find((u) => u.value === value)?.label ?? (value ? capitalize(value) : "");
}

/** Provider specialty ids (spec section 9) and the service names they stand for. */
export const SPECIALTIES: { id: SpecialtyId; readonly name: string }[] = [
  {
    id: "tech-support",
    get name() {
      return t`Technology Support`;
    },
  },
  {
    id: "wellness-checks",
    get name() {
      return t`Wellness Checks`;
    },
  },
  {
    id: "light-errands",
    get name() {
      return t`Light Errands`;
    },
  },
  {
    id: "appointment-support",
    get name() {
      return t`Appointment Support`;
    },
  },
  {
    id: "home-organization",
    get name() {
      return t`Home Organization`;
    },
  },
  {
    id: "communication-support",
    get name() {
      return t`Communication Support`;
    },
  },
];

export function specialtyName(id: string): string {
  return SPECIALTIES.find((s) => s.id === id)?.name ?? id;
}

export function capitalize(value: string): string {
  return value ? value.charAt(0).toUpperCase() + value.slice(1) : value;
}

/** A booking, request or verification status; unknown ones are shown as sent. */
export type AnyStatus = BookingStatus | RequestStatus | VerificationStatus | (string & {});

/** The words of the statuses of bookings, requests, payments and verifications. */
function statusWords(): Record<string, string> {
  return {
    open: t`Open`,
    booked: t`Booked`,
    scheduled: t`Scheduled`,
    confirmed: t`Confirmed`,
    completed: t`Completed`,
    cancelled: t`Cancelled`,
    // A request its client deleted: only staff still see it (the admin's requests tab).
    deleted: t`Deleted by client`,
    // A booking whose helper left while another is found (bookings.services.replacement).
    replacing: t`Finding a replacement`,
    pending: t`Pending`,
    verified: t`Verified`,
    rejected: t`Rejected`,
    paid: t`Paid`,
    failed: t`Failed`,
    refunded: t`Refunded`,
  };
}

export function statusLabel(status: AnyStatus): string {
  return statusWords()[String(status)] ?? capitalize(String(status));
}

/** Where a visit stands today (the booking's visitState), in words. */
export function visitStateLabel(state: string): string {
  const words: Record<string, string> = {
    upcoming: t`Upcoming`,
    in_progress: t`In progress`,
    late: t`Late`,
    missed: t`Missed`,
    done: t`Done`,
    cancelled: t`Cancelled`,
  };
  return words[state] ?? capitalize(state);
}

/** The browser's zone ("America/New_York"), or "" when it cannot tell. */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
  } catch {
    return "";
  }
}

function clockIn(date: Date, timeZone: string | undefined): string {
  return date.toLocaleTimeString(intlLocale(), { hour: "numeric", minute: "2-digit", timeZone });
}

/** How a zone is called at a moment: "Central Time" (Intl's generic name), else its city. */
export function zoneName(timeZone: string, at: Date = new Date()): string {
  const named = (style: "longGeneric" | "shortOffset") =>
    new Intl.DateTimeFormat(intlLocale(), { timeZone, timeZoneName: style })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value;
  try {
    const part = named("longGeneric");
    if (part && !/^GMT/.test(part)) return part;
    // A zone with no name ("Etc/GMT-3"): its offset, "GMT+3".
    if (part) return named("shortOffset") ?? part;
  } catch {
    // An unknown zone: named by its city below.
  }
  const city = timeZone.split("/").pop()?.replace(/_/g, " ") ?? timeZone;
  return t`${city} time`;
}

/** "9:04 AM" from an ISO date-time. Every time of a visit is read on the clock of the person cared
 * for: pass her zone (booking.recipient.timeZone), and when the viewer's clock reads otherwise at
 * that moment the zone is named, "2:00 PM Central Time". Without a zone, the browser's clock. */
export function formatClock(
  value: string | null | undefined,
  timeZone?: string | null,
  viewerZone: string = viewerTimeZone(),
): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  if (!timeZone) return clockIn(date, undefined);
  let text: string;
  try {
    text = clockIn(date, timeZone);
  } catch {
    return clockIn(date, undefined);
  }
  let viewer: string;
  try {
    viewer = clockIn(date, viewerZone || undefined);
  } catch {
    viewer = "";
  }
  return viewer === text ? text : `${text} ${zoneName(timeZone, date)}`;
}

/** A moment of a visit (checked in, checked out) on the clock of the person cared for: the time
 * alone when it is today and the visit's own day ("5:59 PM"); else with its date ("Mon, Nov 23,
 * 5:59 PM"), so that a time under an older visit, or after midnight, is not read as today's.
 * `visitDay` is the visit's YYYY-MM-DD; `timeZone` the recipient's (formatClock names it when the
 * viewer's clock differs). */
export function formatVisitMoment(
  value: string | null | undefined,
  visitDay?: string | null,
  now = new Date(),
  timeZone?: string | null,
): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const dayIn = (d: Date) => {
    if (!timeZone) return todayIso(d);
    try {
      return d.toLocaleDateString("en-CA", { timeZone }); // YYYY-MM-DD
    } catch {
      return todayIso(d);
    }
  };
  const clock = formatClock(value, timeZone);
  const day = dayIn(date);
  if (day === dayIn(now) && (!visitDay || day === visitDay)) return clock;
  let onDay: string;
  try {
    onDay = date.toLocaleDateString(intlLocale(), {
      weekday: "short",
      month: "short",
      day: "numeric",
      timeZone: timeZone || undefined,
    });
  } catch {
    onDay = date.toLocaleDateString(intlLocale(), { weekday: "short", month: "short", day: "numeric" });
  }
  return `${onDay}, ${clock}`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a message was sent (spec: under 24 hours old, its time only, "5:59 PM"; else its date and
 * time, "Nov 23, 2026, 5:59 PM"). A conversation about a person cared for is read on her clock:
 * pass her zone (conversation.recipient.timeZone), named when the viewer's clock reads otherwise,
 * "5:59 PM Eastern Time". Without a zone (support), the browser's clock. */
export function formatMessageTime(
  value: string | null | undefined,
  now: number = Date.now(),
  timeZone?: string | null,
  viewerZone: string = viewerTimeZone(),
): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const clock = formatClock(value, timeZone, viewerZone);
  if (now - date.getTime() < DAY_MS) return clock;
  const options: Intl.DateTimeFormatOptions = { month: "short", day: "numeric", year: "numeric" };
  let day: string;
  try {
    day = date.toLocaleDateString(intlLocale(), { ...options, timeZone: timeZone || undefined });
  } catch {
    day = date.toLocaleDateString(intlLocale(), options);
  }
  return `${day}, ${clock}`;
}

/** A person's display name: "First Last", else their email, else "". */
export function personName(p: { firstName?: string; lastName?: string; email?: string } | null | undefined): string {
  if (!p) return "";
  const name = `${p.firstName ?? ""} ${p.lastName ?? ""}`.trim();
  return name || p.email || "";
}

/** "1 provider found" / "3 providers found" style counts, in English only: a translated file says
 * its counts with Lingui's plural macro (docs/i18n.md), which knows each language's forms. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "3.2 miles away", "12 miles away", "1 mile away", from the server's rounded miles (tenths under
 * 10 miles, whole miles beyond: providers' distanceMiles). */
export function milesAway(miles: number): string {
  if (miles < 0.1) return t`Less than 0.1 miles away`;
  const distance = new Intl.NumberFormat(intlLocale(), { maximumFractionDigits: 1 }).format(miles);
  return pluralMessage(miles, { one: `${distance} mile away`, other: `${distance} miles away` });
}
