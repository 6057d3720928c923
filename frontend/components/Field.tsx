// Labelled form controls. The error text sits right under its field, is linked to it by
// aria-describedby, marks it aria-invalid, and is announced when it appears (role="alert").
// A long text field with a maxLength shows how much of it is used ("120 / 5,000 characters").
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { intlLocale } from "../lib/i18n";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
  "aria-required"?: true;
}

interface FieldProps {
  id: string;
  label: ReactNode;
  /** The error message to show, or empty. */
  error?: string;
  /** Help text shown under the label. */
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  /** Characters typed and allowed: shows a counter under the control. */
  count?: { length: number; max: number };
  children: (control: ControlProps) => ReactNode;
}

/** The ids the control's aria-describedby lists: its hint, its counter, and its error when there is one. */
function describedBy(id: string, hint: ReactNode, error: string | undefined, counted = false): string | undefined {
  return (
    [hint ? `${id}-hint` : undefined, counted ? `${id}-count` : undefined, error ? `${id}-error` : undefined]
      .filter(Boolean)
      .join(" ") || undefined
  );
}

const formatCount = (n: number) => n.toLocaleString(intlLocale());

/** What a screen reader is told as the limit nears: only when a step is crossed (a tenth of the
 * limit left, a fiftieth, none), never on every keystroke. */
export function countAnnouncement(length: number, max: number): string {
  const left = max - length;
  const limit = formatCount(max);
  if (left <= 0) return t`You have reached the limit of ${limit} characters.`;
  const step = [Math.ceil(max / 50), Math.ceil(max / 10)].find((s) => left <= s);
  const count = formatCount(step ?? 0);
  return step ? t`At most ${count} characters left.` : "";
}

/** "120 / 5,000 characters" under a long text field (read with the field, via aria-describedby),
 * and a polite live region that speaks up only near the limit. */
export function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  const near = max - length <= Math.ceil(max / 10);
  const used = formatCount(length);
  const limit = formatCount(max);
  return (
    <>
      <p id={`${id}-count`} className={`field-count${near ? " field-count-near" : ""}`} data-testid={`${id}-count`}>
        {t`${used} / ${limit} characters`}
      </p>
      <p className="visually-hidden" aria-live="polite" data-testid={`${id}-count-live`}>
        {countAnnouncement(length, max)}
      </p>
    </>
  );
}

function RequiredMark({ required }: { required?: boolean }) {
  return required ? (
    <span className="required-mark" aria-hidden="true">
      {" "}
      *
    </span>
  ) : null;
}

/** Help text under the label. */
function Hint({ id, hint }: { id: string; hint: ReactNode }) {
  return hint ? (
    <p id={`${id}-hint`} className="field-hint">
      {hint}
    </p>
  ) : null;
}

/** Always in the page, so that a message appearing in it is announced. */
function ErrorText({ id, error }: { id: string; error?: string }) {
  return (
    <p id={`${id}-error`} className="field-error" role="alert" data-testid={`${id}-error`}>
      {error ?? ""}
    </p>
  );
}

export function Field({ id, label, error, hint, required, className, count, children }: FieldProps) {
  return (
    <div className={`field${error ? " field-invalid" : ""}${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>
        {label}
        <RequiredMark required={required} />
      </label>
      <Hint id={id} hint={hint} />
      {children({
        id,
        "aria-describedby": describedBy(id, hint, error, count !== undefined),
        "aria-invalid": error ? true : undefined,
        "aria-required": required ? true : undefined,
      })}
      {count && <CharacterCount id={id} length={count.length} max={count.max} />}
      <ErrorText id={id} error={error} />
    </div>
  );
}

type Common = Omit<FieldProps, "count" | "children">;

export function InputField({
  id,
  label,
  error,
  hint,
  required,
  className,
  ...rest
}: Common & Omit<InputHTMLAttributes<HTMLInputElement>, "id">) {
  return (
    <Field id={id} label={label} error={error} hint={hint} required={required} className={className}>
      {(control) => <input {...rest} {...control} />}
    </Field>
  );
}

/** A textarea; given a maxLength, it shows the character counter. */
export function TextareaField({
  id,
  label,
  error,
  hint,
  required,
  className,
  ...rest
}: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id">) {
  const count =
    rest.maxLength !== undefined && rest.maxLength > 0
      ? { length: typeof rest.value === "string" ? rest.value.length : 0, max: rest.maxLength }
      : undefined;
  return (
    <Field id={id} label={label} error={error} hint={hint} required={required} className={className} count={count}>
      {(control) => <textarea {...rest} {...control} />}
    </Field>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

export function SelectField({
  id,
  label,
  error,
  hint,
  required,
  className,
  options,
  placeholder,
  ...rest
}: Common & { options: SelectOption[]; placeholder?: string } & Omit<SelectHTMLAttributes<HTMLSelectElement>, "id">) {
  return (
    <Field id={id} label={label} error={error} hint={hint} required={required} className={className}>
      {(control) => (
        <select {...rest} {...control}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A group of checkboxes or radios with one legend and one error (e.g. specialties). */
export function FieldSet({
  id,
  legend,
  error,
  hint,
  required,
  children,
}: {
  id: string;
  legend: ReactNode;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <fieldset
      id={id}
      className={`field fieldset${error ? " field-invalid" : ""}`}
      aria-describedby={describedBy(id, hint, error)}
      aria-invalid={error ? true : undefined}
    >
      <legend>
        {legend}
        <RequiredMark required={required} />
      </legend>
      <Hint id={id} hint={hint} />
      {children}
      <ErrorText id={id} error={error} />
    </fieldset>
  );
}

type ChoiceProps = { id: string; label: ReactNode; description?: ReactNode } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "type"
>;

/** One checkbox or radio with its label beside it, the whole row a 44 px target. */
function Choice({ type, id, label, description, ...rest }: ChoiceProps & { type: "checkbox" | "radio" }) {
  return (
    <label className="choice" htmlFor={id}>
      <input type={type} id={id} {...rest} />
      <span>
        <span className="choice-label">{label}</span>
        {description && <span className="choice-description">{description}</span>}
      </span>
    </label>
  );
}

export function CheckboxOption(props: ChoiceProps) {
  return <Choice type="checkbox" {...props} />;
}

export function RadioOption(props: ChoiceProps) {
  return <Choice type="radio" {...props} />;
}

/** The line above a form that explains its asterisks (read as "required" by screen readers). */
export function RequiredFieldsNote() {
  return (
    <p className="muted">
      <Trans>
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">required</span> are required.
      </Trans>
    </p>
  );
}
