// /request-service: the create form (spec sections 2, 5, 8, 9). Validation on change and on
// submit with the server's rules and words (lib/schemas/service-request.ts), errors next to their
// fields; sent as a mutation (a lost session is lib/query's); success toast then / after 2 s.
import { useMemo } from "react";
import { CheckboxOption, InputField, RadioOption, FieldSet, SelectField, TextareaField } from "../components/Field";
import { RepeatFields } from "../components/RepeatFields";
import { ShortNoticeWarning, type ShortNoticeRules } from "../components/ShortNotice";
import { errorMessage } from "../lib/api";
import { TIME_WINDOWS, URGENCIES } from "../lib/format";
import { useSchemaForm } from "../lib/forms";
import type { Limits } from "../lib/limits";
import { mountQueryIsland, useApiWrite } from "../lib/query";
import {
  createPayload,
  serviceRequestCreateSchema,
  withSeriesFields,
  type ServiceRequestCreateValues,
} from "../lib/schemas/service-request";
import { NO_REPEAT } from "../lib/series";
import type { ServiceRequest } from "../lib/types";

interface Props {
  categories: { id: number; name: string; slug: string }[];
  /** Preselected: the service of the provider whose Contact button led here (?provider=). */
  categoryId: number | null;
  today: string;
  /** The last preferred date the server accepts (a year ahead) and its message. */
  latestDate: string;
  latestDateMessage: string;
  canRequest: boolean;
  limits: Limits;
  shortNotice: ShortNoticeRules;
  /** "Who is this for?": the recipients the user organizes, "Myself" first (id null: the user's
   * own recipient, made when the request is posted). */
  recipients: RecipientOption[];
  /** ?provider=: the verified provider the request is sent to directly (issue 18), or null. */
  askedProvider?: { id: number; firstName: string; lastName: string; service: string } | null;
  /** How long only the asked provider may accept (hours). */
  directWindowHours?: number;
  /** Book again (&from=<bookingId>): that booking's request to start from (not its date). */
  prefill?: Prefill | null;
}

interface Prefill {
  recipientId: number;
  categoryId: number | null;
  title: string;
  description: string;
  location: string;
  specialRequirements: string;
  estimatedDuration: number;
  maxBudget: number | null;
  preferredTime: string;
  urgency: string;
}

interface RecipientOption {
  id: number | null;
  firstName: string;
  lastName: string;
  address: string;
  isSelf: boolean;
}

/** The select's value of an option: its id, or "self" for the user themself before they have one. */
function optionValue(r: RecipientOption): string {
  return r.id === null ? "self" : String(r.id);
}

function optionLabel(r: RecipientOption): string {
  const name = `${r.firstName} ${r.lastName}`.trim();
  return r.isSelf ? (name ? `Myself (${name})` : "Myself") : name;
}

type Values = ServiceRequestCreateValues;

const INITIAL: Values = {
  recipientId: "",
  categoryId: "",
  title: "",
  description: "",
  urgency: "normal",
  preferredDate: "",
  preferredTime: "flexible",
  location: "",
  specialRequirements: "",
  estimatedDuration: "60",
  maxBudget: "",
  onlyRequestedProvider: false,
  ...NO_REPEAT,
};

const FIELDS: (keyof Values)[] = [
  "recipientId",
  "categoryId",
  "title",
  "description",
  "urgency",
  "preferredDate",
  "preferredTime",
  "repeat",
  "repeatCount",
  "repeatUntil",
  "location",
  "specialRequirements",
  "estimatedDuration",
  "maxBudget",
];

/** Book again: the old request's fields as the form's values (the date is chosen anew). The
 * recipient only when the user still organizes them (they are among the options). */
function prefilled(prefill: Prefill | null | undefined, recipients: RecipientOption[]): Partial<Values> {
  if (!prefill) return {};
  const recipient = recipients.find((r) => r.id === prefill.recipientId);
  return {
    ...(recipient ? { recipientId: optionValue(recipient) } : {}),
    ...(prefill.categoryId !== null ? { categoryId: String(prefill.categoryId) } : {}),
    title: prefill.title,
    description: prefill.description,
    location: prefill.location || recipient?.address || "",
    specialRequirements: prefill.specialRequirements,
    estimatedDuration: String(prefill.estimatedDuration),
    maxBudget: prefill.maxBudget === null ? "" : String(prefill.maxBudget),
    preferredTime: prefill.preferredTime || "flexible",
    urgency: ["low", "normal", "high", "urgent"].includes(prefill.urgency) ? prefill.urgency : "normal",
  };
}

function RequestServiceForm(props: Props) {
  const { categories, today, canRequest, limits, shortNotice } = props;
  const recipients = props.recipients ?? [];
  // Preselected when the user has one recipient (a "Myself" not made yet does not count).
  const existing = recipients.filter((r) => r.id !== null);
  const chosen = existing.length === 1 ? existing[0] : recipients.length === 1 ? recipients[0] : undefined;
  const initial: Values = {
    ...INITIAL,
    categoryId: props.categoryId === null ? "" : String(props.categoryId),
    recipientId: chosen ? optionValue(chosen) : "",
    location: chosen?.address ?? "",
    ...prefilled(props.prefill, recipients),
  };
  const asked = props.askedProvider ?? null;
  const schema = useMemo(() => serviceRequestCreateSchema(props), [props]);
  const { post } = useApiWrite();
  const { values, errors, set, setMany, submit, pending } = useSchemaForm({
    schema,
    defaultValues: initial,
    fields: FIELDS,
    fieldId: (f) => (f === "urgency" ? "urgency-normal" : `request-${f}`),
  });
  const onlyAsked = values.onlyRequestedProvider;
  // A change with the fields it may set right or wrong (the series against its first date).
  const change = (changes: Partial<Values>) => setMany(withSeriesFields(changes, values, errors));
  const recipientOf = (value: string) => recipients.find((r) => optionValue(r) === value);
  const chooseRecipient = (value: string) => {
    const before = recipientOf(values.recipientId);
    const after = recipientOf(value);
    // The location follows the chosen person's address unless it was typed in by hand.
    const untouched = !values.location.trim() || values.location === (before?.address ?? "");
    setMany(untouched ? { recipientId: value, location: after?.address ?? "" } : { recipientId: value });
  };

  const onSubmit = submit({
    send: (checked) => post<ServiceRequest>("/api/service-requests", createPayload(checked, asked?.id ?? null)),
    success: asked
      ? {
          title: `Request sent to ${asked.firstName}!`,
          description: onlyAsked
            ? `Only ${asked.firstName} can accept it. You'll be told if they cannot.`
            : `${asked.firstName} has ${props.directWindowHours ?? 24} hours to accept.`,
        }
      : {
          title: "Service Request Created!",
          description: "We'll match you with qualified providers in your area.",
        },
    failure: (error) => `Failed to create service request: ${errorMessage(error)}`,
    redirectTo: "/",
    redirectMs: 2000,
  });

  return (
    <form onSubmit={onSubmit} noValidate data-testid="request-service-form">
      {!canRequest && (
        <p className="notice" role="note">
          Requests are posted from a client account. Use "Switch to Client" in your account menu to request a service.
        </p>
      )}
      {asked && (
        <div className="notice direct-choice" data-testid="direct-choice">
          <p id="direct-window-text">
            {onlyAsked
              ? `Only ${asked.firstName} can accept this request. If they cannot, you will be told why.`
              : `${asked.firstName} will have ${props.directWindowHours ?? 24} hours to accept. After that, other helpers can offer too.`}
          </p>
          <CheckboxOption
            id="request-onlyRequestedProvider"
            label={`Only ${asked.firstName} (don't offer this to other helpers)`}
            checked={onlyAsked}
            onChange={(e) => set("onlyRequestedProvider", e.target.checked)}
            aria-describedby="direct-window-text"
          />
        </div>
      )}
      <p className="muted">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">required</span> are required.
      </p>
      <SelectField
        id="request-recipientId"
        label="Who is this for?"
        required
        hint={
          <>
            The person who will receive the help. <a href="/care-circle">Add someone you care for</a>
          </>
        }
        placeholder={recipients.length === 1 ? undefined : "Choose a person"}
        options={recipients.map((r) => ({ value: optionValue(r), label: optionLabel(r) }))}
        value={values.recipientId}
        onChange={(e) => chooseRecipient(e.target.value)}
        error={errors.recipientId}
      />
      <SelectField
        id="request-categoryId"
        label="Service category"
        required
        placeholder="Choose a service"
        options={categories.map((c) => ({ value: String(c.id), label: c.name }))}
        value={values.categoryId}
        onChange={(e) => set("categoryId", e.target.value)}
        error={errors.categoryId}
      />
      <InputField
        id="request-title"
        label="Title"
        required
        hint="A short summary, for example: Help setting up video calls"
        value={values.title}
        maxLength={limits.title?.maxLength}
        onChange={(e) => set("title", e.target.value)}
        error={errors.title}
      />
      <TextareaField
        id="request-description"
        label="Description"
        required
        hint="What would you like help with? At least 10 characters."
        value={values.description}
        maxLength={limits.description?.maxLength}
        onChange={(e) => set("description", e.target.value)}
        error={errors.description}
      />
      <FieldSet id="request-urgency" legend="How soon do you need help?" error={errors.urgency}>
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
      <div className="form-row">
        <InputField
          id="request-preferredDate"
          label="Preferred date"
          required
          type="date"
          min={today}
          max={props.latestDate}
          value={values.preferredDate}
          onChange={(e) => change({ preferredDate: e.target.value })}
          error={errors.preferredDate}
        />
        <SelectField
          id="request-preferredTime"
          label="Preferred time"
          options={TIME_WINDOWS.map((w) => ({ value: w.value, label: w.label }))}
          value={values.preferredTime}
          onChange={(e) => set("preferredTime", e.target.value)}
          error={errors.preferredTime}
        />
      </div>
      <ShortNoticeWarning date={values.preferredDate} time={values.preferredTime} rules={shortNotice} />
      <RepeatFields
        idPrefix="request"
        values={values}
        firstDate={values.preferredDate}
        errors={errors}
        onChange={change}
      />
      <InputField
        id="request-location"
        label="Location"
        required
        hint="Where the visit takes place: the address of the person you chose, unless you change it"
        autoComplete="street-address"
        value={values.location}
        maxLength={limits.location?.maxLength}
        onChange={(e) => set("location", e.target.value)}
        error={errors.location}
      />
      <TextareaField
        id="request-specialRequirements"
        label="Special requirements (optional)"
        hint="Anything your provider should know: accessibility, pets, parking…"
        value={values.specialRequirements}
        maxLength={limits.specialRequirements?.maxLength}
        onChange={(e) => set("specialRequirements", e.target.value)}
        error={errors.specialRequirements}
      />
      <div className="form-row">
        <InputField
          id="request-estimatedDuration"
          label="Estimated duration (minutes)"
          type="number"
          inputMode="numeric"
          min={15}
          max={limits.estimatedDuration?.max}
          step={15}
          value={values.estimatedDuration}
          onChange={(e) => set("estimatedDuration", e.target.value)}
          error={errors.estimatedDuration}
        />
        <InputField
          id="request-maxBudget"
          label="Maximum budget in dollars (optional)"
          type="number"
          inputMode="decimal"
          min={0}
          max={limits.maxBudget?.max}
          step={5}
          value={values.maxBudget}
          onChange={(e) => set("maxBudget", e.target.value)}
          error={errors.maxBudget}
        />
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Submitting Request..." : "Submit Request"}
        </button>
        <a className="button button-secondary" href="/">
          Cancel
        </a>
      </div>
    </form>
  );
}

mountQueryIsland(RequestServiceForm, "request-service");
