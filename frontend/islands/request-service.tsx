// /request-service: the create form (spec sections 2, 5, 8, 9). Validation on change and on
// submit with the server's rules and words (lib/schemas/service-request.ts), errors next to their
// fields; sent as a mutation (a lost session is lib/query's); success toast then / after 2 s.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useMemo } from "react";
import { AwayWarning, datesOutsideHours, type AwayRange, type HoursWindow } from "../components/DirectRequest";
import { CheckboxOption, RequiredFieldsNote, SelectField } from "../components/Field";
import { SERVICE_REQUEST_FIELDS, ServiceRequestFields } from "../components/ServiceRequestFields";
import type { ShortNoticeRules } from "../components/ShortNotice";
import { errorMessage } from "../lib/api";
import { useSchemaForm } from "../lib/forms";
import type { Limits } from "../lib/limits";
import { mountQueryIsland, useApiWrite } from "../lib/query";
import {
  ADDRESS_PARTS,
  createPayload,
  serviceRequestCreateSchema,
  withSeriesFields,
  type AddressPart,
  type ServiceRequestCreateValues,
} from "../lib/schemas/service-request";
import { NO_REPEAT, seriesDates } from "../lib/series";
import type { ServiceRequest } from "../lib/types";

interface Props {
  categories: { id: number; name: string; slug: string; features: string[] }[];
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
  /** ?provider=: the verified provider the request is sent to directly, or null. */
  askedProvider?: {
    id: number;
    firstName: string;
    lastName: string;
    /** The services she offers: the only ones a direct request may ask for. */
    services: { id: number; name: string }[];
    /** Her time off ahead: the form warns of the visits on it. */
    away: AwayRange[];
    /** Her weekly hours (none: any time): the form warns of visits outside them. */
    hours: HoursWindow[];
  } | null;
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
  address: AddressParts;
  specialRequirements: string;
  tasks?: string[];
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
  addressParts: AddressParts;
  isSelf: boolean;
}

type AddressParts = Record<AddressPart, string>;
const NO_ADDRESS: AddressParts = { street: "", unit: "", town: "", state: "", zipCode: "" };

/** Whether the form's address is blank or still the one it was given (not typed in by hand). */
function untouchedAddress(values: AddressParts, given: AddressParts | undefined): boolean {
  const blank = ADDRESS_PARTS.every((part) => !values[part].trim());
  return blank || ADDRESS_PARTS.every((part) => values[part] === (given ?? NO_ADDRESS)[part]);
}

function addressOf(parts: AddressParts | undefined): AddressParts {
  return { ...NO_ADDRESS, ...(parts ?? {}) };
}

/** The select's value of an option: its id, or "self" for the user themself before they have one. */
function optionValue(r: RecipientOption): string {
  return r.id === null ? "self" : String(r.id);
}

function optionLabel(r: RecipientOption): string {
  const name = `${r.firstName} ${r.lastName}`.trim();
  return r.isSelf ? (name ? t`Myself (${name})` : t`Myself`) : name;
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
  ...NO_ADDRESS,
  specialRequirements: "",
  tasks: [],
  estimatedDuration: "60",
  maxBudget: "",
  onlyRequestedProvider: false,
  ...NO_REPEAT,
};

const FIELDS: (keyof Values)[] = ["recipientId", ...SERVICE_REQUEST_FIELDS.create];

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
    ...(prefill.address && ADDRESS_PARTS.some((part) => prefill.address[part])
      ? addressOf(prefill.address)
      : addressOf(recipient?.addressParts)),
    specialRequirements: prefill.specialRequirements,
    tasks: prefill.tasks ?? [],
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
    ...addressOf(chosen?.addressParts),
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
  // Sent to one helper: only the services she offers, and the visits that fall on her time off.
  const offered = asked ? categories.filter((c) => asked.services.some((s) => s.id === c.id)) : categories;
  const askedFor = asked ? offered.find((c) => String(c.id) === values.categoryId) : undefined;
  const visitDates = asked
    ? seriesDates(
        values.preferredDate,
        values.repeat,
        values.repeat && values.repeatEnds === "count" ? Number(values.repeatCount) || null : null,
        values.repeat && values.repeatEnds === "until" ? values.repeatUntil : null,
      )
    : [];
  // A change with the fields it may set right or wrong (the series against its first date).
  const change = (changes: Partial<Values>) => setMany(withSeriesFields(changes, values, errors));
  const recipientOf = (value: string) => recipients.find((r) => optionValue(r) === value);
  const chooseRecipient = (value: string) => {
    const before = recipientOf(values.recipientId);
    const after = recipientOf(value);
    // The address follows the chosen person's unless it was typed in by hand.
    const untouched = untouchedAddress(values, before?.addressParts);
    setMany(untouched ? { recipientId: value, ...addressOf(after?.addressParts) } : { recipientId: value });
  };

  const askedName = asked?.firstName ?? "";
  const windowHours = props.directWindowHours ?? 24;
  const serviceName = askedFor?.name ?? "";
  const onSubmit = submit({
    send: (checked) => post<ServiceRequest>("/api/service-requests", createPayload(checked, asked?.id ?? null)),
    success: asked
      ? {
          title: t`Request sent to ${askedName}!`,
          description: onlyAsked
            ? t`Only ${askedName} can accept it. You'll be told if they cannot.`
            : t`${askedName} has ${windowHours} hours to accept.`,
        }
      : {
          title: t`Service Request Created!`,
          description: t`We'll match you with qualified providers in your area.`,
        },
    failure: (error) => {
      const reason = errorMessage(error);
      return t`Failed to create service request: ${reason}`;
    },
    redirectTo: "/",
    redirectMs: 2000,
  });

  return (
    <form onSubmit={onSubmit} noValidate data-testid="request-service-form">
      {!canRequest && (
        <p className="notice" role="note">
          <Trans>
            Requests are posted from a client account. Use "Switch to Client" in your account menu to request a service.
          </Trans>
        </p>
      )}
      {asked && (
        <div className="notice direct-choice" data-testid="direct-choice">
          <p data-testid="asked-service">
            {askedFor
              ? t`You're asking ${askedName} for ${serviceName}.`
              : t`Choose one of ${askedName}'s services under "Service category".`}
          </p>
          <p id="direct-window-text">
            {onlyAsked
              ? t`Only ${askedName} can accept this request. If they cannot, you will be told why.`
              : t`${askedName} will have ${windowHours} hours to accept. After that, other helpers can offer too.`}
          </p>
          <CheckboxOption
            id="request-onlyRequestedProvider"
            label={t`Only ${askedName} (don't offer this to other helpers)`}
            checked={onlyAsked}
            onChange={(e) => set("onlyRequestedProvider", e.target.checked)}
            aria-describedby="direct-window-text"
          />
        </div>
      )}
      <RequiredFieldsNote />
      <SelectField
        id="request-recipientId"
        label={t`Who is this for?`}
        required
        hint={
          <>
            <Trans>
              The person who will receive the help. <a href="/care-circle">Add someone you care for</a>
            </Trans>
          </>
        }
        placeholder={recipients.length === 1 ? undefined : t`Choose a person`}
        options={recipients.map((r) => ({ value: optionValue(r), label: optionLabel(r) }))}
        value={values.recipientId}
        onChange={(e) => chooseRecipient(e.target.value)}
        error={errors.recipientId}
      />
      <ServiceRequestFields
        variant="create"
        values={values}
        errors={errors}
        set={set}
        change={change}
        categories={offered}
        limits={limits}
        today={today}
        latestDate={props.latestDate}
        shortNotice={shortNotice}
      />
      {asked && (
        <AwayWarning
          name={asked.firstName}
          dates={visitDates}
          away={asked.away}
          outside={datesOutsideHours(
            visitDates,
            asked.hours,
            shortNotice.windowStarts[values.preferredTime] ?? shortNotice.windowStarts.flexible ?? "08:00",
            Number(values.estimatedDuration) || 60,
          )}
        />
      )}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? t`Submitting Request...` : t`Submit Request`}
        </button>
        <a className="button button-secondary" href="/">
          <Trans>Cancel</Trans>
        </a>
      </div>
    </form>
  );
}

mountQueryIsland(RequestServiceForm, "request-service");
