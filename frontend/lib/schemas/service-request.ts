// The service request's form schema, shared by the create page (/request-service) and the edit
// page (/edit-service-request): the rules of requests_app/services/rules.py service_request_problems,
// with its words, so the form says before submitting what the server would answer after.
// The two pages differ as the server's two variants do: create asks for a preferred date and
// takes 15-minute and $5 steps from 15 minutes; edit takes any whole minute from 1 and any
// amount, a date is optional, and "urgent" is not offered (an urgent request keeps it).
// A repeat is checked as series_problems checks it, on the whole form: its end against
// the first visit's date.
// Numbers and words come from the page's `limits` props (core.api.input_limits) when it
// has them; otherwise from the server's rules as generated (../rules.generated.ts).
import { t } from "@lingui/core/macro";
import * as z from "zod/mini";
import { TIME_WINDOWS } from "../format";
import { fill, type FieldLimit, type Limits } from "../limits";
import { RULES } from "../rules.generated";
import {
  REPEATS,
  SERIES_MAX_VISITS,
  SERIES_MIN_VISITS,
  repeatPayload,
  seriesLength,
  type RepeatValues,
} from "../series";
import { choices, text } from "./rules";

export type Variant = "create" | "edit";

// requests_app/services/rules.py and its serializers' choice messages (the generated rules).
const R = RULES.serviceRequest;
export const {
  TITLE_MAX,
  TEXT_MAX,
  LOCATION_MAX,
  DESCRIPTION_MIN,
  DURATION_MIN,
  DURATION_MIN_ON_EDIT,
  DURATION_STEP,
  DURATION_MAX,
  BUDGET_MIN,
  BUDGET_STEP,
  BUDGET_MAX,
  TITLE_REQUIRED,
  TITLE_TOO_LONG,
  DESCRIPTION_TOO_SHORT,
  DESCRIPTION_TOO_LONG,
  CATEGORY_REQUIRED,
  LOCATION_REQUIRED,
  LOCATION_TOO_LONG,
  SPECIAL_REQUIREMENTS_TOO_LONG,
  DURATION_TOO_SHORT,
  DURATION_TOO_SHORT_ON_EDIT,
  DURATION_TOO_LONG,
  DURATION_NOT_IN_STEPS,
  BUDGET_NEGATIVE,
  BUDGET_TOO_HIGH,
  BUDGET_NOT_IN_STEPS,
  PREFERRED_DATE_REQUIRED,
  PREFERRED_DATE_PAST,
  PREFERRED_DATE_TOO_FAR,
  REPEAT_NEEDS_DATE,
  REPEAT_NEEDS_END,
  REPEAT_TOO_FEW,
  REPEAT_UNTIL_BEFORE_FIRST,
  REPEAT_UNTIL_ONE_VISIT,
  PREFERRED_TIME_INVALID,
  TASKS_MAX,
  TASK_MAX_LENGTH,
  TASKS_TOO_MANY,
  TASK_TOO_LONG,
  TASKS_REPEATED,
} = R;
export const URGENCY_INVALID: Record<Variant, string> = R.URGENCY_INVALID;
// Where the visit is, in parts (core.addresses): the street line and the town are asked
// for, so helpers see a town before a booking and the booked helper finds the door. The server
// only requires some part (LOCATION_REQUIRED): these two are the form's own questions.
export const streetRequired = () => t`Please enter the street address.`;
export const townRequired = () => t`Please enter the town.`;
const PART_LIMITS = RULES.address.PART_LIMITS;
const PART_LABELS = RULES.address.PART_LABELS;
export type AddressPart = keyof typeof PART_LIMITS;
export const ADDRESS_PARTS: AddressPart[] = ["street", "unit", "town", "state", "zipCode"];
/** _too_many */
export const repeatTooMany = (n: number) => fill(R.REPEAT_TOO_MANY, { n });
// The create form's own questions (the server fills in a default for each).
export const recipientRequired = () => t`Please choose who this request is for.`;
export const preferredTimeRequired = () => t`Preferred time is required`;

/** The urgencies each page offers (spec section 4: the edit page offers three). */
export const URGENCY_VALUES: Record<Variant, readonly string[]> = R.URGENCY_VALUES;

/** The request's fields as its forms hold them (inputs' text), its repeat included. */
export interface ServiceRequestValues extends RepeatValues {
  categoryId: string;
  title: string;
  description: string;
  urgency: string;
  preferredDate: string;
  preferredTime: string;
  street: string;
  unit: string;
  town: string;
  state: string;
  zipCode: string;
  specialRequirements: string;
  /** The family's task list for the visit, in order (requests_app.services.tasks_problem). */
  tasks: string[];
  estimatedDuration: string;
  maxBudget: string;
}

/** The task list as it is sent: each item's spaces tidied, empty items left out (clean_tasks). */
export function cleanTasks(tasks: string[]): string[] {
  return tasks.map((t) => t.split(/\s+/).filter(Boolean).join(" ")).filter(Boolean);
}

/** tasks_problem: at most TASKS_MAX items of at most TASK_MAX_LENGTH characters, each once. */
export function tasksProblem(tasks: string[]): string {
  const items = cleanTasks(tasks);
  if (items.length > TASKS_MAX) return TASKS_TOO_MANY;
  if (items.some((t) => t.length > TASK_MAX_LENGTH)) return TASK_TOO_LONG;
  if (new Set(items.map((t) => t.toLowerCase())).size < items.length) return TASKS_REPEATED;
  return "";
}

/** The create form also asks whom the request is for (a recipient's id, or "self") and, sent to
 * one helper (?provider=), whether only they may accept it. */
export interface ServiceRequestCreateValues extends ServiceRequestValues {
  recipientId: string;
  onlyRequestedProvider: boolean;
}

/** What the page's props give the rules: the preferred date's range (site time zone) and the
 * server's limits. */
export interface RequestBounds {
  today: string;
  latestDate: string;
  latestDateMessage?: string;
  limits?: Limits;
}

interface TextRule {
  required?: string;
  min?: number;
  short?: string;
  max: number;
  tooLong: string;
}

/** _text_problem: blank, too short, too long, counted as sent (trimmed). */
function textProblem(value: string, rule: TextRule, limit: FieldLimit | undefined): string {
  const sent = value.trim();
  if (!sent && rule.required) return rule.required;
  if (sent.length < (limit?.minLength ?? rule.min ?? 0)) return limit?.minLengthMessage ?? rule.short ?? "";
  if (sent.length > (limit?.maxLength ?? rule.max)) return limit?.maxLengthMessage ?? rule.tooLong;
  return "";
}

/** duration_problem: 15 minutes to 24 hours in steps of 15 on create; from 1 minute on edit. */
export function durationProblem(value: string, variant: Variant, limit?: FieldLimit): string {
  const creating = variant === "create";
  const min = limit?.min ?? (creating ? DURATION_MIN : DURATION_MIN_ON_EDIT);
  const tooShort = limit?.minMessage ?? (creating ? DURATION_TOO_SHORT : DURATION_TOO_SHORT_ON_EDIT);
  const minutes = Number(value);
  if (value.trim() === "" || !Number.isInteger(minutes) || minutes < min) return tooShort;
  if (minutes > (limit?.max ?? DURATION_MAX)) return limit?.maxMessage ?? DURATION_TOO_LONG;
  return creating && minutes % DURATION_STEP !== 0 ? DURATION_NOT_IN_STEPS : "";
}

/** budget_problem: an optional amount, $0 to $99,999, in steps of $5 on create. */
export function budgetProblem(value: string, variant: Variant, limit?: FieldLimit): string {
  if (value.trim() === "") return "";
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount < (limit?.min ?? BUDGET_MIN)) return limit?.minMessage ?? BUDGET_NEGATIVE;
  if (amount > (limit?.max ?? BUDGET_MAX)) return limit?.maxMessage ?? BUDGET_TOO_HIGH;
  return variant === "create" && amount % BUDGET_STEP !== 0 ? BUDGET_NOT_IN_STEPS : "";
}

/** preferred_date_problem, and create's "required": from today to a year ahead ("YYYY-MM-DD"). */
export function preferredDateProblem(value: string, variant: Variant, bounds: RequestBounds): string {
  if (!value) return variant === "create" ? PREFERRED_DATE_REQUIRED : "";
  if (value < bounds.today) return PREFERRED_DATE_PAST;
  return value > bounds.latestDate ? (bounds.latestDateMessage ?? PREFERRED_DATE_TOO_FAR) : "";
}

/** An address part's rule: the server's length (its limits), required when `required` says why. */
function partText(part: AddressPart, required: () => string, limits: Limits) {
  return text((v) =>
    textProblem(
      v,
      {
        required: required(),
        max: PART_LIMITS[part],
        tooLong: fill(R.PART_TOO_LONG, { label: PART_LABELS[part], max: PART_LIMITS[part] }),
      },
      limits[part],
    ),
  );
}

/** The address's parts as the API takes them (trimmed). */
function addressPayload(v: ServiceRequestValues) {
  return Object.fromEntries(ADDRESS_PARTS.map((part) => [part, v[part].trim()])) as Record<AddressPart, string>;
}

function fields(variant: Variant, bounds: RequestBounds) {
  const limits = bounds.limits ?? {};
  const creating = variant === "create";
  return {
    categoryId: text((v) => (Number.isInteger(Number(v)) && Number(v) >= 1 ? "" : CATEGORY_REQUIRED)),
    title: text((v) =>
      textProblem(v, { required: TITLE_REQUIRED, max: TITLE_MAX, tooLong: TITLE_TOO_LONG }, limits.title),
    ),
    description: text((v) =>
      textProblem(
        v,
        {
          required: DESCRIPTION_TOO_SHORT,
          min: DESCRIPTION_MIN,
          short: DESCRIPTION_TOO_SHORT,
          max: TEXT_MAX,
          tooLong: DESCRIPTION_TOO_LONG,
        },
        limits.description,
      ),
    ),
    // An urgent request keeps "urgent" on the edit page without offering it (editPayload leaves it out).
    urgency: text((v) => (URGENCY_VALUES[variant].includes(v) || v === "urgent" ? "" : URGENCY_INVALID[variant])),
    preferredDate: text((v) => preferredDateProblem(v, variant, bounds)),
    preferredTime: text((v) => {
      if (!v) return creating ? preferredTimeRequired() : "";
      return TIME_WINDOWS.some((w) => w.value === v) ? "" : PREFERRED_TIME_INVALID;
    }),
    street: partText("street", streetRequired, limits),
    unit: partText("unit", () => "", limits),
    town: partText("town", townRequired, limits),
    state: partText("state", () => "", limits),
    zipCode: partText("zipCode", () => "", limits),
    specialRequirements: text((v) =>
      textProblem(v, { max: TEXT_MAX, tooLong: SPECIAL_REQUIREMENTS_TOO_LONG }, limits.specialRequirements),
    ),
    tasks: choices(tasksProblem),
    estimatedDuration: text((v) => durationProblem(v, variant, limits.estimatedDuration)),
    maxBudget: text((v) => budgetProblem(v, variant, limits.maxBudget)),
  };
}

type RepeatField = keyof RepeatValues | "preferredDate";

/**
 * series_problems for the form's repeat: which field is wrong and why ({} when it is fine). Only
 * the end the form shows is sent (repeatPayload), so its message goes on that field, the missing
 * end's too. A missing first date is the date's own message on create, where it is required.
 */
export function seriesProblem(v: RepeatValues & { preferredDate: string }, variant: Variant) {
  const problem = (field: RepeatField, message: string) =>
    ({ [field]: message }) as Partial<Record<RepeatField, string>>;
  if (!v.repeat) return {};
  const first = v.preferredDate;
  if (v.repeatEnds === "count") {
    const count = Number(v.repeatCount);
    if (v.repeatCount.trim() === "" || !Number.isInteger(count)) return problem("repeatCount", REPEAT_NEEDS_END);
    if (count < SERIES_MIN_VISITS) return problem("repeatCount", REPEAT_TOO_FEW);
    if (count > SERIES_MAX_VISITS) return problem("repeatCount", repeatTooMany(count));
  } else if (!v.repeatUntil) return problem("repeatUntil", REPEAT_NEEDS_END);
  if (!first) return variant === "edit" ? problem("preferredDate", REPEAT_NEEDS_DATE) : {};
  if (v.repeatEnds === "until") {
    if (v.repeatUntil <= first) return problem("repeatUntil", REPEAT_UNTIL_BEFORE_FIRST);
    const n = seriesLength(first, v.repeat, v.repeatUntil);
    if (n < SERIES_MIN_VISITS) return problem("repeatUntil", REPEAT_UNTIL_ONE_VISIT);
    if (n > SERIES_MAX_VISITS) return problem("repeatUntil", repeatTooMany(n));
  }
  return {};
}

/**
 * A change and the fields whose message it may change with it: the date moves the end date's
 * series (once one is chosen), and the repeat decides whether an empty date is wrong (when it is
 * said so). The forms set them together, so no message stays behind.
 */
export function withSeriesFields<V extends ServiceRequestValues>(
  changes: Partial<NoInfer<V>>,
  values: V,
  errors: Partial<Record<keyof V, string>>,
): Partial<V> {
  const out: Partial<V> = { ...changes };
  const next = { ...values, ...changes };
  if ("preferredDate" in changes && next.repeat && next.repeatEnds === "until" && next.repeatUntil) {
    out.repeatUntil ??= next.repeatUntil;
  }
  if ("repeat" in changes && errors.preferredDate) out.preferredDate ??= next.preferredDate;
  return out;
}

const repeatFields = {
  repeat: z.enum(REPEATS.map((r) => r.value) as [RepeatValues["repeat"], ...RepeatValues["repeat"][]]),
  repeatEnds: z.enum(["count", "until"]),
  repeatCount: text(),
  repeatUntil: text(),
};

/** The form's object with its repeat checked against its first date (after the fields' own
 * rules, so a field says its own problem first). */
function withSeries<S extends z.ZodMiniObject>(shape: S, variant: Variant): S {
  return shape.check(
    z.superRefine((values, ctx) => {
      const found = seriesProblem(values as unknown as ServiceRequestValues, variant);
      for (const [field, message] of Object.entries(found)) {
        ctx.addIssue({ code: "custom", message, path: [field], input: values });
      }
    }),
  );
}

/** The create page's schema (/request-service). */
export function serviceRequestCreateSchema(bounds: RequestBounds) {
  return withSeries(
    z.object({
      recipientId: text((v) => (v ? "" : recipientRequired())),
      onlyRequestedProvider: z.boolean(),
      ...fields("create", bounds),
      ...repeatFields,
    }),
    "create",
  );
}

/** The edit page's fields, each with its own rules (a form of some of them picks from these). */
export function serviceRequestEditFields(bounds: RequestBounds) {
  return z.object({ ...fields("edit", bounds), ...repeatFields });
}

/** The edit page's schema (/edit-service-request). */
export function serviceRequestEditSchema(bounds: RequestBounds) {
  return withSeries(serviceRequestEditFields(bounds), "edit");
}

const amount = (v: string) => (v.trim() === "" ? null : Number(v));

/** POST /api/service-requests from the create form's values; `askedProviderId`: the helper it is
 * sent to directly (?provider=), if any. */
export function createPayload(v: ServiceRequestCreateValues, askedProviderId: number | null = null) {
  return {
    title: v.title.trim(),
    description: v.description.trim(),
    urgency: v.urgency,
    preferredTime: v.preferredTime,
    ...addressPayload(v),
    specialRequirements: v.specialRequirements.trim(),
    tasks: cleanTasks(v.tasks),
    estimatedDuration: Number(v.estimatedDuration),
    maxBudget: amount(v.maxBudget),
    categoryId: Number(v.categoryId),
    preferredDate: v.preferredDate,
    // "self" (the user themself, before they have a recipient): none given.
    recipientId: v.recipientId === "self" || v.recipientId === "" ? null : Number(v.recipientId),
    ...repeatPayload(v),
    ...(askedProviderId === null
      ? {}
      : { requestedProviderId: askedProviderId, onlyRequestedProvider: v.onlyRequestedProvider }),
  };
}

/** PUT /api/service-requests/{id} from the edit form's values. */
export function editPayload(v: ServiceRequestValues) {
  return {
    title: v.title.trim(),
    description: v.description.trim(),
    categoryId: Number(v.categoryId),
    // The edit page offers low/normal/high; an "urgent" request keeps its urgency unless changed.
    ...(v.urgency === "urgent" ? {} : { urgency: v.urgency }),
    preferredDate: v.preferredDate || null,
    preferredTime: v.preferredTime,
    ...addressPayload(v),
    specialRequirements: v.specialRequirements.trim(),
    tasks: cleanTasks(v.tasks),
    estimatedDuration: Number(v.estimatedDuration),
    maxBudget: amount(v.maxBudget),
    ...repeatPayload(v),
  };
}
