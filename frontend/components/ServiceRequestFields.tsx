// The fields of a service request, written once for its two forms: /request-service
// (variant "create", ids request-…) and /edit-service-request (variant "edit", ids edit-…). Each
// page keeps its own words and order as the spec gives them (the table below); the page's own
// parts (whom it is for, the asked helper, delete) stay in its island.
import { t } from "@lingui/core/macro";
import type { ReactNode } from "react";
import { FieldSet, InputField, RadioOption, SelectField, TextareaField } from "./Field";
import { RepeatFields } from "./RepeatFields";
import { ShortNoticeWarning, type ShortNoticeRules } from "./ShortNotice";
import { TaskListFields } from "./TaskListFields";
import { TIME_WINDOWS, URGENCIES } from "../lib/format";
import type { Messages } from "../lib/forms";
import type { Limits } from "../lib/limits";
import {
  BUDGET_MIN,
  BUDGET_STEP,
  DURATION_MIN,
  DURATION_MIN_ON_EDIT,
  DURATION_STEP,
  URGENCY_VALUES,
  type ServiceRequestValues,
  type Variant,
} from "../lib/schemas/service-request";

type Values = ServiceRequestValues;

/** Each form's fields in display order (the first invalid one gets the focus); the create form
 * puts its recipient before them. */
const WHEN_AND_WHERE: (keyof Values)[] = [
  "urgency",
  "preferredDate",
  "preferredTime",
  "repeat",
  "repeatCount",
  "repeatUntil",
  "street",
  "unit",
  "town",
  "state",
  "zipCode",
  "specialRequirements",
  "tasks",
  "estimatedDuration",
  "maxBudget",
];
export const SERVICE_REQUEST_FIELDS: Record<Variant, (keyof Values)[]> = {
  create: ["categoryId", "title", "description", ...WHEN_AND_WHERE],
  edit: ["title", "description", "categoryId", ...WHEN_AND_WHERE],
};

// Who reads the special requirements (ARCHITECTURE.md): every helper considering the request; door
// codes and keys belong in the person's notes for helpers, which only the booked helper reads.
const specialHint = () =>
  t`Helpers considering this request read this: accessibility, pets, parking… Put door codes and keys in the person's notes for helpers on the Care circle page: only the booked helper reads those.`;

interface Texts {
  idPrefix: string;
  categoryPlaceholder: string;
  titleHint?: string;
  descriptionHint: string;
  dateRequired: boolean;
  dateHint?: string;
  timePlaceholder?: string;
  locationHint?: string;
  specialLabel: string;
  specialHint?: string;
  durationRequired: boolean;
  durationMin: number;
  budgetLabel: string;
}

/** What differs between the two pages: their ids' prefix, words and required fields. Read when
 * shown, so the words are in the page's language (active only once the island mounts). */
function texts(variant: Variant): Texts {
  if (variant === "create") {
    return {
      idPrefix: "request",
      categoryPlaceholder: t`Choose a service`,
      titleHint: t`A short summary, for example: Help setting up video calls`,
      descriptionHint: t`What would you like help with? At least 10 characters.`,
      dateRequired: true,
      locationHint: t`The address of the person you chose, unless you change it. Helpers see the town and ZIP until one is booked; the street goes to the booked helper.`,
      specialLabel: t`Special requirements (optional)`,
      specialHint: specialHint(),
      durationRequired: false,
      durationMin: DURATION_MIN,
      budgetLabel: t`Maximum budget in dollars (optional)`,
    };
  }
  return {
    idPrefix: "edit",
    categoryPlaceholder: t`Select a service`,
    descriptionHint: t`At least 10 characters.`,
    dateRequired: false,
    dateHint: t`Optional: leave it empty if any day suits you.`,
    timePlaceholder: t`Select a time`,
    locationHint: t`Helpers see the town and ZIP until one is booked; the street goes to the booked helper.`,
    specialLabel: t`Special requirements`,
    specialHint: specialHint(),
    durationRequired: true,
    durationMin: DURATION_MIN_ON_EDIT,
    budgetLabel: t`Maximum budget ($, optional)`,
  };
}

/** "Low - can wait a week or more", "Urgent - ASAP": an urgency as the edit page's list says it. */
function urgencyOption(u: (typeof URGENCIES)[number]) {
  const explanation = /^[A-Z]{2}/.test(u.explanation)
    ? u.explanation
    : u.explanation.charAt(0).toLowerCase() + u.explanation.slice(1);
  return { value: u.value, label: `${u.label} - ${explanation}` };
}

/** The edit page offers three urgencies (spec section 4); an urgent request also shows its own.
 * Read when shown: the labels are in the reader's language, active only once the island mounts. */
function editUrgencies(current: string) {
  return URGENCIES.filter(
    (u) => URGENCY_VALUES.edit.includes(u.value) || (u.value === "urgent" && current === "urgent"),
  ).map(urgencyOption);
}

interface Props {
  variant: Variant;
  values: Values;
  errors: Messages<Values>;
  // A method, so a form with more fields (the create form's) passes its own.
  set<K extends keyof Values>(this: void, name: K, value: Values[K]): void;
  /** A change that may set the series' fields right or wrong (a date, a repeat). */
  change: (changes: Partial<Values>) => void;
  categories: { id: number; name: string; features?: string[] }[];
  limits: Limits;
  /** The preferred date's range: today to a year ahead (site time zone). */
  today: string;
  latestDate: string;
  shortNotice: ShortNoticeRules;
}

export function ServiceRequestFields({
  variant,
  values,
  errors,
  set,
  change,
  categories,
  limits,
  today,
  latestDate,
  shortNotice,
}: Props) {
  const words = texts(variant);
  const id = (field: keyof Values) => `${words.idPrefix}-${field}`;
  const category = (
    <SelectField
      id={id("categoryId")}
      label={t`Service category`}
      required
      placeholder={words.categoryPlaceholder}
      options={categories.map((c) => ({ value: String(c.id), label: c.name }))}
      value={values.categoryId}
      onChange={(e) => set("categoryId", e.target.value)}
      error={errors.categoryId}
    />
  );
  // The create page shows the urgencies as described choices, the edit page as a list.
  let urgency: ReactNode;
  if (variant === "create") {
    urgency = (
      <FieldSet id={id("urgency")} legend={t`How soon do you need help?`} error={errors.urgency}>
        <div className="choices-grid">
          {URGENCIES.map((u) => (
            <RadioOption
              key={u.value}
              id={`urgency-${u.value}`}
              name="urgency"
              value={u.value}
              checked={values.urgency === u.value}
              onChange={() => set("urgency", u.value)}
              label={u.label}
              description={u.explanation}
            />
          ))}
        </div>
      </FieldSet>
    );
  } else {
    urgency = (
      <SelectField
        id={id("urgency")}
        label={t`Urgency`}
        options={editUrgencies(values.urgency)}
        value={values.urgency}
        onChange={(e) => set("urgency", e.target.value)}
        error={errors.urgency}
      />
    );
  }

  return (
    <>
      {variant === "create" && category}
      <InputField
        id={id("title")}
        label={t`Title`}
        required
        hint={words.titleHint}
        value={values.title}
        maxLength={limits.title?.maxLength}
        onChange={(e) => set("title", e.target.value)}
        error={errors.title}
      />
      <TextareaField
        id={id("description")}
        label={t`Description`}
        required
        hint={words.descriptionHint}
        value={values.description}
        maxLength={limits.description?.maxLength}
        onChange={(e) => set("description", e.target.value)}
        error={errors.description}
      />
      {variant === "edit" && category}
      {urgency}
      <div className="form-row">
        <InputField
          id={id("preferredDate")}
          label={t`Preferred date`}
          required={words.dateRequired}
          hint={words.dateHint}
          type="date"
          min={today}
          max={latestDate}
          value={values.preferredDate}
          onChange={(e) => change({ preferredDate: e.target.value })}
          error={errors.preferredDate}
        />
        <SelectField
          id={id("preferredTime")}
          label={t`Preferred time`}
          placeholder={words.timePlaceholder}
          options={TIME_WINDOWS.map((w) => ({ value: w.value, label: w.label }))}
          value={values.preferredTime}
          onChange={(e) => set("preferredTime", e.target.value)}
          error={errors.preferredTime}
        />
      </div>
      <ShortNoticeWarning date={values.preferredDate} time={values.preferredTime} rules={shortNotice} />
      <RepeatFields
        idPrefix={words.idPrefix}
        values={values}
        firstDate={values.preferredDate}
        errors={errors}
        onChange={change}
      />
      <FieldSet id={`${words.idPrefix}-location`} legend={t`Where is the visit?`} hint={words.locationHint}>
        <InputField
          id={id("street")}
          label={t`Street address`}
          required
          autoComplete="address-line1"
          value={values.street}
          maxLength={limits.street?.maxLength}
          onChange={(e) => set("street", e.target.value)}
          error={errors.street}
        />
        <InputField
          id={id("unit")}
          label={t`Apartment or unit (optional)`}
          autoComplete="address-line2"
          value={values.unit}
          maxLength={limits.unit?.maxLength}
          onChange={(e) => set("unit", e.target.value)}
          error={errors.unit}
        />
        <InputField
          id={id("town")}
          label={t`Town`}
          required
          autoComplete="address-level2"
          value={values.town}
          maxLength={limits.town?.maxLength}
          onChange={(e) => set("town", e.target.value)}
          error={errors.town}
        />
        <div className="form-row">
          <InputField
            id={id("state")}
            label={t`State`}
            autoComplete="address-level1"
            value={values.state}
            maxLength={limits.state?.maxLength}
            onChange={(e) => set("state", e.target.value)}
            error={errors.state}
          />
          <InputField
            id={id("zipCode")}
            label={t`ZIP`}
            inputMode="numeric"
            autoComplete="postal-code"
            value={values.zipCode}
            maxLength={limits.zipCode?.maxLength}
            onChange={(e) => set("zipCode", e.target.value)}
            error={errors.zipCode}
          />
        </div>
      </FieldSet>
      <TextareaField
        id={id("specialRequirements")}
        label={words.specialLabel}
        hint={words.specialHint}
        value={values.specialRequirements}
        maxLength={limits.specialRequirements?.maxLength}
        onChange={(e) => set("specialRequirements", e.target.value)}
        error={errors.specialRequirements}
      />
      <TaskListFields
        id={id("tasks")}
        tasks={values.tasks}
        suggestions={categories.find((c) => String(c.id) === values.categoryId)?.features ?? []}
        error={errors.tasks}
        onChange={(tasks) => set("tasks", tasks)}
      />
      <div className="form-row">
        <InputField
          id={id("estimatedDuration")}
          label={t`Estimated duration (minutes)`}
          required={words.durationRequired}
          type="number"
          inputMode="numeric"
          min={words.durationMin}
          max={limits.estimatedDuration?.max}
          step={DURATION_STEP}
          value={values.estimatedDuration}
          onChange={(e) => set("estimatedDuration", e.target.value)}
          error={errors.estimatedDuration}
        />
        <InputField
          id={id("maxBudget")}
          label={words.budgetLabel}
          type="number"
          inputMode="decimal"
          min={BUDGET_MIN}
          max={limits.maxBudget?.max}
          step={BUDGET_STEP}
          value={values.maxBudget}
          onChange={(e) => set("maxBudget", e.target.value)}
          error={errors.maxBudget}
        />
      </div>
    </>
  );
}
