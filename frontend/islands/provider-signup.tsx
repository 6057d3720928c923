// /provider-signup: the application form (spec sections 2, 5, 8). Each field is validated as
// it changes, with the spec's messages (frontend/lib/schemas/provider.ts); success toast then /
// after 2 s. A provider already has a profile: the page shows "Where you help" instead (her home
// ZIP code and how far she travels, which decide the families who find her nearby).
import { t } from "@lingui/core/macro";
import { useMemo, useState, type FormEvent } from "react";
import {
  CheckboxOption,
  FieldSet,
  InputField,
  RequiredFieldsNote,
  SelectField,
  TextareaField,
} from "../components/Field";
import { api, errorMessage, isUnauthorizedError, handleLoggedOut } from "../lib/api";
import { useSchemaForm } from "../lib/forms";
import type { Limits } from "../lib/limits";
import { mountIsland } from "../lib/mount";
import {
  TRAVEL_CHOICES,
  TRAVEL_DEFAULT,
  RATE_MAX,
  RATE_MIN,
  RATE_STEP,
  providerApplicationPayload,
  providerApplicationSchema,
  providerAreaPayload,
  providerAreaSchema,
  type ProviderApplicationValues,
  type ProviderAreaValues,
} from "../lib/schemas/provider";
import { toast } from "../lib/toast";
import type { Provider } from "../lib/types";

interface Props {
  user: { id: string; firstName: string };
  specialties: { id: string; name: string }[];
  /** The languages she may say she speaks, named in the reader's language. */
  languages: { id: string; name: string }[];
  limits: Limits;
  /** Her profile when she already has one: the page shows "Where you help". */
  provider?: Provider | null;
}

type Values = ProviderApplicationValues;

const FIELDS: (keyof Values)[] = [
  "phone",
  "specialties",
  "languages",
  "hourlyRate",
  "serviceArea",
  "homeZip",
  "travelMiles",
  "bio",
  "experience",
];

const INITIAL: Values = {
  phone: "",
  specialties: [],
  languages: ["en"],
  hourlyRate: "",
  serviceArea: "",
  homeZip: "",
  travelMiles: TRAVEL_DEFAULT,
  bio: "",
  experience: "",
};

/** The travel distances, read when shown (in the page's language). */
const travelOptions = () => TRAVEL_CHOICES.map((miles) => ({ value: String(miles), label: t`Up to ${miles} miles` }));

/** The languages she speaks: checkboxes, the same in the application and on her profile. */
function LanguagesField({
  options,
  chosen,
  error,
  onChange,
}: {
  options: { id: string; name: string }[];
  chosen: string[];
  error?: string;
  onChange: (languages: string[]) => void;
}) {
  return (
    <FieldSet
      id="provider-languages"
      legend={t`Languages you speak`}
      hint={t`Families see them on your profile, and requests for someone who speaks one come to you first.`}
      required
      error={error}
    >
      <div className="choices-grid">
        {options.map((language) => (
          <CheckboxOption
            key={language.id}
            id={`language-${language.id}`}
            name="languages"
            value={language.id}
            label={language.name}
            checked={chosen.includes(language.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...chosen, language.id] : chosen.filter((code) => code !== language.id))
            }
          />
        ))}
      </div>
    </FieldSet>
  );
}

/** "Languages you speak" for a provider already: saved on its own (PATCH /api/provider/profile). */
function LanguagesForm({ provider, options }: { provider: Provider; options: { id: string; name: string }[] }) {
  const [chosen, setChosen] = useState<string[]>(provider.languages);
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    setError("");
    try {
      await api.patch<Provider>("/api/provider/profile", { languages: chosen });
      toast({ title: t`Saved`, description: t`Families will see the languages you speak.` });
    } catch (err) {
      if (isUnauthorizedError(err)) {
        handleLoggedOut("/login");
        return;
      }
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  }
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate data-testid="provider-languages-form">
      <LanguagesField options={options} chosen={chosen} error={error} onChange={setChosen} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? t`Saving...` : t`Save languages`}
        </button>
      </div>
    </form>
  );
}

/** Her home ZIP code and how far she travels: the same two fields in both forms. */
function AreaFields({
  values,
  errors,
  set,
}: {
  values: ProviderAreaValues;
  errors: Partial<Record<keyof ProviderAreaValues, string>>;
  set: (name: keyof ProviderAreaValues, value: string) => void;
}) {
  return (
    <>
      <InputField
        id="provider-homeZip"
        label={t`Home ZIP code`}
        required
        hint={t`We ask only for your ZIP code: families see how far away you are, never your address.`}
        inputMode="numeric"
        autoComplete="postal-code"
        maxLength={10}
        value={values.homeZip}
        onChange={(e) => set("homeZip", e.target.value)}
        error={errors.homeZip}
      />
      <SelectField
        id="provider-travelMiles"
        label={t`How far will you travel?`}
        required
        hint={t`From your home. You are shown to families who live within this distance.`}
        options={travelOptions()}
        value={values.travelMiles}
        onChange={(e) => set("travelMiles", e.target.value)}
        error={errors.travelMiles}
      />
    </>
  );
}

const AREA_FIELDS: (keyof ProviderAreaValues)[] = ["homeZip", "travelMiles"];

/** "Where you help", for a provider who has a profile (PATCH /api/provider/profile). */
function WhereYouHelpForm({ provider }: { provider: Provider }) {
  const initial = {
    homeZip: provider.homeZip,
    travelMiles: TRAVEL_CHOICES.includes(provider.travelMiles) ? String(provider.travelMiles) : TRAVEL_DEFAULT,
  };
  const { values, errors, set, handleSubmit, showServerErrors } = useSchemaForm<ProviderAreaValues>({
    schema: providerAreaSchema,
    defaultValues: initial,
    fields: AREA_FIELDS,
    fieldId: (name) => `provider-${name}`,
  });
  const [saving, setSaving] = useState(false);
  const onSubmit = handleSubmit(async (checked) => {
    setSaving(true);
    try {
      await api.patch<Provider>("/api/provider/profile", providerAreaPayload(checked));
      toast({ title: t`Saved`, description: t`Families nearby will find you by this distance.` });
    } catch (error) {
      if (isUnauthorizedError(error)) {
        handleLoggedOut("/login");
        return;
      }
      showServerErrors(error);
      const reason = errorMessage(error);
      toast({ title: t`Error`, description: t`We couldn't save this: ${reason}`, variant: "destructive" });
    } finally {
      setSaving(false);
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate data-testid="provider-area-form">
      <AreaFields values={values} errors={errors} set={set} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? t`Saving...` : t`Save where you help`}
        </button>
      </div>
    </form>
  );
}

function ProviderSignup(props: Props) {
  return props.provider ? (
    <>
      <WhereYouHelpForm provider={props.provider} />
      <LanguagesForm provider={props.provider} options={props.languages} />
    </>
  ) : (
    <ProviderSignupForm {...props} />
  );
}

function ProviderSignupForm({ specialties, languages, limits }: Props) {
  const schema = useMemo(() => providerApplicationSchema(limits), [limits]);
  const { values, errors, set, submit, pending } = useSchemaForm({
    schema,
    defaultValues: INITIAL,
    fields: FIELDS,
    fieldId: (name) =>
      name === "specialties"
        ? `specialty-${specialties[0]?.id}`
        : name === "languages"
          ? `language-${languages[0]?.id}`
          : `provider-${name}`,
  });
  const toggle = (id: string, on: boolean) =>
    set("specialties", on ? [...values.specialties, id] : values.specialties.filter((s) => s !== id));

  const onSubmit = submit({
    send: (checked) => api.post<Provider>("/api/provider/profile", providerApplicationPayload(checked)),
    success: {
      title: t`Provider Profile Created!`,
      description: t`Your application has been submitted for review. You'll be notified once you're verified.`,
    },
    failure: (error) => {
      const reason = errorMessage(error);
      return t`Failed to create provider profile: ${reason}`;
    },
    redirectTo: "/",
    redirectMs: 2000,
    onInvalid: (found) => {
      if (found.specialties) {
        toast({ title: t`Error`, description: t`Please select at least one service`, variant: "destructive" });
      }
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate data-testid="provider-signup-form">
      <RequiredFieldsNote />
      <InputField
        id="provider-phone"
        label={t`Phone number`}
        required
        type="tel"
        autoComplete="tel"
        hint={t`At least 10 digits; spaces, dashes, dots, parentheses and a leading + are fine.`}
        maxLength={limits.phone?.maxLength}
        value={values.phone}
        onChange={(e) => set("phone", e.target.value)}
        error={errors.phone}
      />
      <FieldSet
        id="provider-specialties"
        legend={t`Services you offer`}
        hint={t`Choose every service you can help with.`}
        required
        error={errors.specialties}
      >
        <div className="choices-grid">
          {specialties.map((s) => (
            <CheckboxOption
              key={s.id}
              id={`specialty-${s.id}`}
              name="specialties"
              value={s.id}
              label={s.name}
              checked={values.specialties.includes(s.id)}
              onChange={(e) => toggle(s.id, e.target.checked)}
            />
          ))}
        </div>
      </FieldSet>
      <LanguagesField
        options={languages}
        chosen={values.languages}
        error={errors.languages}
        onChange={(chosen) => set("languages", chosen)}
      />
      <InputField
        id="provider-hourlyRate"
        label={t`Hourly rate in dollars`}
        required
        hint={t`Between $${RATE_MIN} and $${RATE_MAX}, in steps of $${RATE_STEP}.`}
        type="number"
        inputMode="numeric"
        min={RATE_MIN}
        max={RATE_MAX}
        step={RATE_STEP}
        value={values.hourlyRate}
        onChange={(e) => set("hourlyRate", e.target.value)}
        error={errors.hourlyRate}
      />
      <InputField
        id="provider-serviceArea"
        label={t`Service area`}
        required
        hint={t`The town, neighbourhoods or zip codes you can travel to`}
        value={values.serviceArea}
        maxLength={limits.serviceArea?.maxLength}
        onChange={(e) => set("serviceArea", e.target.value)}
        error={errors.serviceArea}
      />
      <AreaFields values={values} errors={errors} set={set} />
      <TextareaField
        id="provider-bio"
        label={t`About you`}
        required
        hint={t`Introduce yourself to the seniors and families you'll help (at least 50 characters).`}
        value={values.bio}
        maxLength={limits.bio?.maxLength}
        onChange={(e) => set("bio", e.target.value)}
        error={errors.bio}
      />
      <TextareaField
        id="provider-experience"
        label={t`Experience`}
        required
        hint={t`Relevant work, volunteering or caregiving experience (at least 20 characters).`}
        value={values.experience}
        maxLength={limits.experience?.maxLength}
        onChange={(e) => set("experience", e.target.value)}
        error={errors.experience}
      />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? t`Submitting Application...` : t`Submit Application`}
        </button>
      </div>
    </form>
  );
}

mountIsland(ProviderSignup, "provider-signup");
