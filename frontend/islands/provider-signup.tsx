// /provider-signup: the application form (spec sections 2, 5, 8). Each field is validated as
// it changes, with the spec's messages (frontend/lib/schemas/provider.ts); success toast then /
// after 2 s.
import { useMemo } from "react";
import { CheckboxOption, FieldSet, InputField, RequiredFieldsNote, TextareaField } from "../components/Field";
import { api, errorMessage } from "../lib/api";
import { useSchemaForm } from "../lib/forms";
import type { Limits } from "../lib/limits";
import { mountIsland } from "../lib/mount";
import {
  RATE_MAX,
  RATE_MIN,
  RATE_STEP,
  providerApplicationPayload,
  providerApplicationSchema,
  type ProviderApplicationValues,
} from "../lib/schemas/provider";
import { toast } from "../lib/toast";
import type { Provider } from "../lib/types";

interface Props {
  user: { id: string; firstName: string };
  specialties: { id: string; name: string }[];
  limits: Limits;
}

type Values = ProviderApplicationValues;

const FIELDS: (keyof Values)[] = ["phone", "specialties", "hourlyRate", "serviceArea", "bio", "experience"];

const INITIAL: Values = {
  phone: "",
  specialties: [],
  hourlyRate: "",
  serviceArea: "",
  bio: "",
  experience: "",
};

function ProviderSignupForm({ specialties, limits }: Props) {
  const schema = useMemo(() => providerApplicationSchema(limits), [limits]);
  const { values, errors, set, submit, pending } = useSchemaForm({
    schema,
    defaultValues: INITIAL,
    fields: FIELDS,
    fieldId: (name) => (name === "specialties" ? `specialty-${specialties[0]?.id}` : `provider-${name}`),
  });
  const toggle = (id: string, on: boolean) =>
    set("specialties", on ? [...values.specialties, id] : values.specialties.filter((s) => s !== id));

  const onSubmit = submit({
    send: (checked) => api.post<Provider>("/api/provider/profile", providerApplicationPayload(checked)),
    success: {
      title: "Provider Profile Created!",
      description: "Your application has been submitted for review. You'll be notified once you're verified.",
    },
    failure: (error) => `Failed to create provider profile: ${errorMessage(error)}`,
    redirectTo: "/",
    redirectMs: 2000,
    onInvalid: (found) => {
      if (found.specialties) {
        toast({ title: "Error", description: "Please select at least one service", variant: "destructive" });
      }
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate data-testid="provider-signup-form">
      <RequiredFieldsNote />
      <InputField
        id="provider-phone"
        label="Phone number"
        required
        type="tel"
        autoComplete="tel"
        hint="At least 10 digits; spaces, dashes, dots, parentheses and a leading + are fine."
        maxLength={limits.phone?.maxLength}
        value={values.phone}
        onChange={(e) => set("phone", e.target.value)}
        error={errors.phone}
      />
      <FieldSet
        id="provider-specialties"
        legend="Services you offer"
        hint="Choose every service you can help with."
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
      <InputField
        id="provider-hourlyRate"
        label="Hourly rate in dollars"
        required
        hint={`Between $${RATE_MIN} and $${RATE_MAX}, in steps of $${RATE_STEP}.`}
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
        label="Service area"
        required
        hint="The town, neighbourhoods or zip codes you can travel to"
        value={values.serviceArea}
        maxLength={limits.serviceArea?.maxLength}
        onChange={(e) => set("serviceArea", e.target.value)}
        error={errors.serviceArea}
      />
      <TextareaField
        id="provider-bio"
        label="About you"
        required
        hint="Introduce yourself to the seniors and families you'll help (at least 50 characters)."
        value={values.bio}
        maxLength={limits.bio?.maxLength}
        onChange={(e) => set("bio", e.target.value)}
        error={errors.bio}
      />
      <TextareaField
        id="provider-experience"
        label="Experience"
        required
        hint="Relevant work, volunteering or caregiving experience (at least 20 characters)."
        value={values.experience}
        maxLength={limits.experience?.maxLength}
        onChange={(e) => set("experience", e.target.value)}
        error={errors.experience}
      />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Submitting Application..." : "Submit Application"}
        </button>
      </div>
    </form>
  );
}

mountIsland(ProviderSignupForm, "provider-signup");
