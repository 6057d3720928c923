// /schedule's forms (providers.services weekly_hours_problems and time_off_add, the
// providers/api serializers): the week's windows, saved all at once, and a time off to add.
// The server's rules and words, each on the field the server's answer names.
import * as z from "zod/mini";
import { parseDateOnly } from "../format";
import { intlLocale } from "../i18n";
import { fill } from "../limits";
import { RULES } from "../rules.generated";
import type { TimeOff } from "../types";

export const {
  TIME_STEP_MINUTES,
  MAX_WINDOWS,
  NOTE_MAX,
  END_BEFORE_START,
  TIME_NOT_IN_STEPS,
  TOO_MANY_WINDOWS,
  LAST_BEFORE_FIRST,
  FIRST_DAY_PAST,
  FIRST_DAY_REQUIRED,
  NOTE_TOO_LONG,
  DATE_INVALID,
} = RULES.schedule;
export const TIME_REQUIRED = RULES.schedule.TIME_INVALID;

/** One window of the week; `key` names its fields on the page (w-<key>-start). */
export interface HoursWindow {
  key: number;
  weekday: number;
  start: string;
  end: string;
}

export interface WeeklyHoursValues {
  /** Monday's windows first: the server's errors name a window by its place in this list. */
  windows: HoursWindow[];
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of "HH:MM", or null when it is not such a time. */
function minutes(value: string): number | null {
  const m = TIME.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

type Issues = Record<string, string>;

/** What is wrong with the week, {"windows.<n>.start"|"windows.<n>.end"|"windows": message}. */
export function weeklyHoursProblems(windows: readonly HoursWindow[], weekdays: readonly string[]): Issues {
  if (windows.length > MAX_WINDOWS) return { windows: TOO_MANY_WINDOWS };
  const problems: Issues = {};
  windows.forEach((w, i) => {
    const start = minutes(w.start);
    const end = minutes(w.end);
    for (const [name, at] of [
      ["start", start],
      ["end", end],
    ] as const) {
      if (at === null) problems[`windows.${i}.${name}`] = TIME_REQUIRED;
      else if (at % TIME_STEP_MINUTES !== 0) problems[`windows.${i}.${name}`] = TIME_NOT_IN_STEPS;
    }
    if (start !== null && end !== null && end <= start && !problems[`windows.${i}.end`]) {
      problems[`windows.${i}.end`] = END_BEFORE_START;
    }
  });
  if (Object.keys(problems).length > 0) return problems;
  const byDay = new Map<number, { i: number; start: number; end: number }[]>();
  windows.forEach((w, i) => {
    const list = byDay.get(w.weekday) ?? [];
    list.push({ i, start: minutes(w.start) ?? 0, end: minutes(w.end) ?? 0 });
    byDay.set(w.weekday, list);
  });
  for (const [day, list] of byDay) {
    list.sort((a, b) => a.start - b.start || a.i - b.i);
    let reach: number | null = null; // the latest end among the day's earlier windows
    for (const w of list) {
      if (reach !== null && w.start < reach) {
        problems[`windows.${w.i}.start`] = fill(RULES.schedule.WINDOWS_OVERLAP, { day: weekdays[day] ?? "" });
      }
      reach = Math.max(reach ?? w.end, w.end);
    }
  }
  return problems;
}

function issuesOf(problems: Issues, ctx: z.core.$RefinementCtx<unknown>, input: unknown) {
  for (const [path, message] of Object.entries(problems)) {
    ctx.addIssue({
      code: "custom",
      message,
      input,
      path: path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    });
  }
}

const hoursWindow = z.object({ key: z.number(), weekday: z.number(), start: z.string(), end: z.string() });

export function weeklyHoursSchema(weekdays: readonly string[]) {
  return z
    .object({ windows: z.array(hoursWindow) })
    .check(
      z.superRefine((value: WeeklyHoursValues, ctx) =>
        issuesOf(weeklyHoursProblems(value.windows, weekdays), ctx, value),
      ),
    );
}

/** PUT /api/providers/me/schedule from the form's values. */
export function weeklyHoursPayload(values: WeeklyHoursValues) {
  return { weeklyHours: values.windows.map((w) => ({ weekday: w.weekday, startTime: w.start, endTime: w.end })) };
}

export interface TimeOffValues {
  firstDay: string;
  lastDay: string;
  note: string;
}

export const EMPTY_TIME_OFF: TimeOffValues = { firstDay: "", lastDay: "", note: "" };

/** "2026-11-27" -> "November 27, 2026" (providers.services _day), "27 de noviembre de 2026" on a
 * Spanish page (the page's language, lib/i18n intlLocale). */
export function serverDay(iso: string): string {
  const day = parseDateOnly(iso);
  return day ? day.toLocaleDateString(intlLocale(), { year: "numeric", month: "long", day: "numeric" }) : iso;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with a time off to add ({field: message}), given today (YYYY-MM-DD, the site's
 * day) and the time off already planned. The last day left empty is the first day. */
export function timeOffProblems(values: TimeOffValues, today: string, planned: readonly TimeOff[]): Issues {
  const first = values.firstDay;
  const last = values.lastDay || values.firstDay;
  if (!first) return { firstDay: FIRST_DAY_REQUIRED };
  if (!DATE.test(first)) return { firstDay: DATE_INVALID };
  const problems: Issues = {};
  if (!DATE.test(last)) problems.lastDay = DATE_INVALID;
  else if (last < first) problems.lastDay = LAST_BEFORE_FIRST;
  if (first < today) problems.firstDay = FIRST_DAY_PAST;
  if (values.note.trim().length > NOTE_MAX) problems.note = NOTE_TOO_LONG;
  if (Object.keys(problems).length > 0) return problems;
  const clash = planned.find((t) => t.firstDay <= last && t.lastDay >= first);
  if (clash) {
    return {
      firstDay: fill(RULES.schedule.TIME_OFF_OVERLAP, {
        first: serverDay(clash.firstDay),
        last: serverDay(clash.lastDay),
      }),
    };
  }
  return {};
}

export function timeOffSchema(today: string, planned: readonly TimeOff[]) {
  return z
    .object({ firstDay: z.string(), lastDay: z.string(), note: z.string() })
    .check(z.superRefine((value: TimeOffValues, ctx) => issuesOf(timeOffProblems(value, today, planned), ctx, value)));
}

/** POST /api/providers/me/time-off from the form's values. */
export function timeOffPayload(values: TimeOffValues) {
  return { firstDay: values.firstDay, lastDay: values.lastDay || values.firstDay, note: values.note };
}
