// Labelled form controls. The error text sits right under its field, is linked to it by
// aria-describedby, marks it aria-invalid, and is announced when it appears (role="alert").
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
  children: (control: ControlProps) => ReactNode;
}

/** The ids the control's aria-describedby lists: its hint, and its error when there is one. */
function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(" ") || undefined;
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

export function Field({ id, label, error, hint, required, className, children }: FieldProps) {
  return (
    <div className={`field${error ? " field-invalid" : ""}${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>
        {label}
        <RequiredMark required={required} />
      </label>
      <Hint id={id} hint={hint} />
      {children({
        id,
        "aria-describedby": describedBy(id, hint, error),
        "aria-invalid": error ? true : undefined,
        "aria-required": required ? true : undefined,
      })}
      <ErrorText id={id} error={error} />
    </div>
  );
}

type Common = { id: string; label: ReactNode; error?: string; hint?: ReactNode; required?: boolean; className?: string };

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

export function TextareaField({
  id,
  label,
  error,
  hint,
  required,
  className,
  ...rest
}: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id">) {
  return (
    <Field id={id} label={label} error={error} hint={hint} required={required} className={className}>
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
