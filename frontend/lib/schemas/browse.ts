// The /providers filters (GET /api/providers, providers/api/serializers.py
// ProviderListQuerySerializer): the search, the service, the sort, "Available on" a date and the
// time of day, near whom (a care recipient of the person's circles) and within how many miles,
// with the server's rules and words. The page asks the server only for filters this
// schema accepts; a refused set is answered the way the server would answer it.
import * as z from "zod/mini";
import { todayIso } from "../format";
import { fill } from "../limits";
import { RULES } from "../rules.generated";
import { text } from "./rules";

export interface BrowseValues {
  search: string;
  service: string;
  sort: string;
  day: string;
  dayPart: string;
  /** A care recipient's id ("" for anyone, anywhere). */
  near: string;
  /** At most this many miles from them ("" for as far as each helper travels). */
  within: string;
  /** Only helpers who speak this language (a code, "" for any). */
  language: string;
}

export const { SORT_VALUES, DAY_PART_VALUES } = RULES.browse;
export const { DEFAULT_SORT, DISTANCE_SORT } = RULES.browse;
export const { SEARCH_MAX_LENGTH } = RULES.browse;
/** The server's answer when more than one field is wrong (core/api.py). */
export const { SEVERAL_PROBLEMS } = RULES.errors;

export const BROWSE_DEFAULTS: BrowseValues = {
  search: "",
  service: "",
  sort: DEFAULT_SORT,
  day: "",
  dayPart: "",
  near: "",
  within: "",
  language: "",
};

/** The filters a page starts from: near the first of `near` ("" for none), nearest first. */
export function browseDefaults(near: string): BrowseValues {
  return near ? { ...BROWSE_DEFAULTS, near, sort: DISTANCE_SORT } : BROWSE_DEFAULTS;
}

const { TRAVEL_MILES_MIN, TRAVEL_MILES_MAX } = RULES.provider;

function withinProblem(within: string): string {
  if (!within) return "";
  const miles = Number(within);
  return Number.isInteger(miles) && miles >= TRAVEL_MILES_MIN && miles <= TRAVEL_MILES_MAX
    ? ""
    : RULES.browse.WITHIN_OUT_OF_RANGE;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The day's message (`today`: YYYY-MM-DD by the browser's clock), "" when it can be sent. */
export function dayProblem(day: string, today: string = todayIso()): string {
  if (!day) return "";
  if (!ISO_DATE.test(day) || Number.isNaN(Date.parse(day))) return RULES.browse.DATE_INVALID;
  return day < today ? RULES.browse.DAY_PAST : "";
}

const oneOf = (values: readonly string[], message: (value: string) => string) =>
  text((value) => (!value || values.includes(value) ? "" : message(value)));

export const browseSchema = z
  .object({
    search: text((value) => (value.trim().length > SEARCH_MAX_LENGTH ? RULES.browse.SEARCH_TOO_LONG : "")),
    // The service list and the people to be near are the server's own (the page's props).
    service: text(),
    sort: oneOf(SORT_VALUES, (value) => fill(RULES.plain.INVALID_CHOICE, { input: value })),
    day: text((value) => dayProblem(value)),
    dayPart: oneOf(DAY_PART_VALUES, () => RULES.browse.DAY_PART_INVALID),
    near: text(),
    within: text(withinProblem),
    // The languages are the server's own list (the page's props).
    language: text(),
  })
  .check(
    z.superRefine((values, ctx) => {
      // Nearest first, and a distance, need someone to be near.
      for (const field of ["sort", "within"] as const) {
        const needsNear = field === "sort" ? values.sort === DISTANCE_SORT : values.within !== "";
        if (needsNear && !values.near) {
          ctx.addIssue({ code: "custom", message: RULES.browse.NEAR_NEEDED, path: [field], input: values[field] });
        }
      }
    }),
  );

/** What the server would answer for these filters: "" when it accepts them, else its message
 * (the one problem's, or SEVERAL_PROBLEMS). */
export function browseProblem(values: BrowseValues): string {
  const issues = browseSchema.safeParse(values).error?.issues ?? [];
  const fields = new Set(issues.map((issue) => String(issue.path[0])));
  if (fields.size === 0) return "";
  return fields.size === 1 ? (issues[0]?.message ?? "") : SEVERAL_PROBLEMS;
}
