// /provider-signup: the application form (spec sections 2, 5, 8). Each field is validated as
// it changes, with the spec's messages; success toast then / after 2 s.
import type { FormEvent } from "react";
import { CheckboxOption, FieldSet, InputField, TextareaField } from "../components/Field";
import { api, errorMessage } from "../lib/api";
import { textTooLong, type Limits } from "../lib/limits";
import { mountIsland } from "../lib/mount";
import { toast } from "../lib/toast";
import type { Provider } from "../lib/types";
import { useForm } from "../lib/useForm";

interface Props {
  user: { id: string; firstName: string };
  specialties: { id: string; name: string }[];
  limits: Limits;
}

interface Values {
  phone: string;
  specialties: string[];
  hourlyRate: string;
  serviceArea: string;
  bio: string;
  experience: string;
}

const FIELDS: (keyof Values)[] = ["phone", "specialties", "hourlyRate", "serviceArea", "bio", "experience"];

const INITIAL: Values = {
  phone: "",
  specialties: [],
  hourlyRate: "",
  serviceArea: "",
  bio: "",
  experience: "",
};

// The server's phone rule and words (marketplace/validators.py): digits and the usual separators.
const PHONE_CHARACTERS = /^\+?[0-9 ().-]*$/;

function phoneMessage(phone: string): string {
  const text = phone.trim();
  if (!PHONE_CHARACTERS.test(text)) {
    return "Phone number can contain only digits, spaces, dashes, dots, parentheses and a leading +.";
  }
  const digits = text.replace(/\D/g, "").length;
  if (digits < 10) return "Phone number must be at least 10 digits";
  return digits > 15 ? "Phone number can have at most 15 digits." : "";
}

function validate(name: keyof Values, v: Values, limits: Limits): string {
  switch (name) {
    case "phone":
      return phoneMessage(v.phone);
    case "specialties":
      return v.specialties.length > 0 ? "" : "Please select at least one specialty";
    case "hourlyRate": {
      if (v.hourlyRate === "") return "Please enter your hourly rate";
      const n = Number(v.hourlyRate);
      if (!Number.isFinite(n)) return "Please enter your hourly rate";
      if (n < 15 || n > 100) return "Hourly rate must be between $15 and $100";
      return n % 5 === 0 ? "" : "Hourly rate must be in steps of $5";
    }
    case "serviceArea":
      return v.serviceArea.trim() ? textTooLong(limits.serviceArea, v.serviceArea) : "Please enter your service area";
    case "bio":
      if (v.bio.trim().length < 50) return "Please provide a detailed bio (at least 50 characters)";
      return textTooLong(limits.bio, v.bio);
    case "experience":
      if (v.experience.trim().length < 20) return "Please describe your experience";
      return textTooLong(limits.experience, v.experience);
  }
}

function ProviderSignupForm({ specialties, limits }: Props) {
  const { values, errors, set, validateAll, submit, pending } = useForm(INITIAL, FIELDS, (name, v: Values) =>
    validate(name, v, limits),
  );
  const toggle = (id: string, on: boolean) =>
    set("specialties", on ? [...values.specialties, id] : values.specialties.filter((s) => s !== id));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { errors: all, first } = validateAll();
    if (all.specialties) {
      toast({ title: "Error", description: "Please select at least one service", variant: "destructive" });
    }
    if (first) {
      document
        .getElementById(first === "specialties" ? `specialty-${specialties[0]?.id}` : `provider-${first}`)
        ?.focus();
      return;
    }
    await submit({
      send: () =>
        api.post<Provider>("/api/provider/profile", {
          phone: values.phone.trim(),
          specialties: values.specialties,
          hourlyRate: Number(values.hourlyRate),
          serviceArea: values.serviceArea.trim(),
          bio: values.bio.trim(),
          experience: values.experience.trim(),
        }),
      success: {
        title: "Provider Profile Created!",
        description: "Your application has been submitted for review. You'll be notified once you're verified.",
      },
      failure: (error) => `Failed to create provider profile: ${errorMessage(error)}`,
      redirectTo: "/",
      redirectMs: 2000,
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate data-testid="provider-signup-form">
      <p className="muted">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">required</span> are required.
      </p>
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
        hint="Between $15 and $100, in steps of $5."
        type="number"
        inputMode="numeric"
        min={15}
        max={100}
        step={5}
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
