// Recurring visits: the series' dates as the server works them out
// (requests_app.services.series_dates), for the forms' live summary, and the words for a series.
import { plural, t } from "@lingui/core/macro";
import type { components } from "./api-schema";
import { parseDateOnly } from "./format";
import { RULES } from "./rules.generated";

/** How a request repeats; "" when it does not. */
export type Repeat = components["schemas"]["RepeatEnum"] | "";

/** The fewest and the most visits a series may have (requests_app.models). */
export const { SERIES_MIN_VISITS, SERIES_MAX_VISITS } = RULES.serviceRequest;

// The labels are getters: read when shown, in the page's language.
export const REPEATS: { value: Repeat; readonly label: string }[] = [
  {
    value: "",
    get label() {
      return t`Does not repeat`;
    },
  },
  {
    value: "weekly",
    get label() {
      return t`Every week`;
    },
  },
  {
    value: "every_2_weeks",
    get label() {
      return t`Every 2 weeks`;
    },
  },
  {
    value: "monthly",
    get label() {
      return t`Every month`;
    },
  },
];

export function repeatLabel(value: string | null | undefined): string {
  return REPEATS.find((r) => r.value === value && value)?.label ?? "";
}

function iso(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The visit `k` months after `first`: the same weekday in the same week of the month; a 5th
 * weekday becomes the last one in months without one. */
function monthly(first: Date, k: number): Date {
  const month = first.getMonth() + k;
  const start = new Date(first.getFullYear(), month, 1);
  const nth = Math.floor((first.getDate() - 1) / 7);
  let day = 1 + ((first.getDay() - start.getDay() + 7) % 7) + 7 * nth;
  const daysInMonth = new Date(start.getFullYear(), start.getMonth() + 1, 0).getDate();
  if (day > daysInMonth) day -= 7;
  return new Date(start.getFullYear(), start.getMonth(), day);
}

function nthDate(first: Date, repeat: Repeat, k: number): Date {
  if (repeat === "monthly") return monthly(first, k);
  const step = repeat === "every_2_weeks" ? 14 : 7;
  return new Date(first.getFullYear(), first.getMonth(), first.getDate() + step * k);
}

/**
 * The dates ("YYYY-MM-DD") of a series starting on `first`: `count` visits, or those on or before
 * `until`. Stops one past the maximum, so a form can tell a series that is too long. Not repeating:
 * the first date alone; no (valid) first date: none.
 */
export function seriesDates(first: string, repeat: Repeat, count?: number | null, until?: string | null): string[] {
  const start = parseDateOnly(first);
  if (!start) return [];
  if (!repeat) return [first];
  const out: string[] = [];
  for (let k = 0; k <= SERIES_MAX_VISITS; k++) {
    if (count != null && k >= count) break;
    const day = iso(nthDate(start, repeat, k));
    if (count == null && (!until || day > until)) break;
    out.push(day);
  }
  return out;
}

/** "Tue Dec 8" (or "Dec 8" without the weekday). */
export function shortDay(value: string, withWeekday = true): string {
  const d = parseDateOnly(value);
  if (!d) return "";
  const options: Intl.DateTimeFormatOptions = withWeekday
    ? { weekday: "short", month: "short", day: "numeric" }
    : { month: "short", day: "numeric" };
  return d.toLocaleDateString("en-US", options).replace(",", "");
}

/** "4 visits: Tue Dec 1, Dec 8, Dec 15, Dec 22" (the weekday once: it is the same for all). */
export function seriesSummary(dates: string[]): string {
  if (dates.length === 0) return "";
  const shown = dates.slice(0, 6).map((d, i) => shortDay(d, i === 0));
  const more = dates.length > 6 ? `, … ${shortDay(dates.at(-1) ?? "", false)}` : "";
  return `${dates.length} ${dates.length === 1 ? "visit" : "visits"}: ${shown.join(", ")}${more}`;
}

/** The form's values of a repeat. */
export interface RepeatValues {
  repeat: Repeat;
  repeatEnds: "count" | "until";
  repeatCount: string;
  repeatUntil: string;
}

export const NO_REPEAT: RepeatValues = { repeat: "", repeatEnds: "count", repeatCount: "4", repeatUntil: "" };

/**
 * How many visits a series has, ending on or before `until` (requests_app.services.series_length):
 * worked out, not counted, so an end date years ahead costs nothing. 0 without a valid first date.
 */
export function seriesLength(first: string, repeat: Repeat, until: string): number {
  const start = parseDateOnly(first);
  const end = parseDateOnly(until);
  if (!start || !end || !repeat) return start ? 1 : 0;
  if (end < start) return 0;
  if (repeat === "monthly") {
    const months = (end.getFullYear() - start.getFullYear()) * 12 + end.getMonth() - start.getMonth();
    return months + (iso(monthly(start, months)) <= until ? 1 : 0);
  }
  const days = Math.round((end.getTime() - start.getTime()) / 86_400_000);
  return Math.floor(days / (repeat === "every_2_weeks" ? 14 : 7)) + 1;
}

/** The API's fields of a repeat. */
export function repeatPayload(v: RepeatValues) {
  if (!v.repeat) return { repeat: "", repeatCount: null, repeatUntil: null };
  return v.repeatEnds === "count"
    ? { repeat: v.repeat, repeatCount: Number(v.repeatCount), repeatUntil: null }
    : { repeat: v.repeat, repeatCount: null, repeatUntil: v.repeatUntil };
}

/** "Every week · 4 visits" for a request's card or page; "" when it does not repeat. */
export function requestRepeatSummary(r: { repeat?: string; visitDates?: string[] }): string {
  const label = repeatLabel(r.repeat);
  if (!label) return "";
  const n = r.visitDates?.length ?? 0;
  return plural(n, { one: `${label} · # visit`, other: `${label} · # visits` });
}
