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

export function Field({ id, label, error, hint, required, className, children }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const describedBy = [hintId, error ? errorId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " field-invalid" : ""}${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="required-mark" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </label>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {children({
        id,
        "aria-describedby": describedBy,
        "aria-invalid": error ? true : undefined,
        "aria-required": required ? true : undefined,
      })}
      <p id={errorId} className="field-error" role="alert" data-testid={`${id}-error`}>
        {error ?? ""}
      </p>
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
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const describedBy = [hintId, error ? errorId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset
      id={id}
      className={`field fieldset${error ? " field-invalid" : ""}`}
      aria-describedby={describedBy}
      aria-invalid={error ? true : undefined}
    >
      <legend>
        {legend}
        {required && (
          <span className="required-mark" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </legend>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {children}
      <p id={errorId} className="field-error" role="alert" data-testid={`${id}-error`}>
        {error ?? ""}
      </p>
    </fieldset>
  );
}

/** One checkbox with its label beside it, the whole row a 44 px target. */
export function CheckboxOption({
  id,
  label,
  description,
  ...rest
}: { id: string; label: ReactNode; description?: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "type">) {
  return (
    <label className="choice" htmlFor={id}>
      <input type="checkbox" id={id} {...rest} />
      <span>
        <span className="choice-label">{label}</span>
        {description && <span className="choice-description">{description}</span>}
      </span>
    </label>
  );
}

/** One radio with its label beside it. */
export function RadioOption({
  id,
  label,
  description,
  ...rest
}: { id: string; label: ReactNode; description?: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "type">) {
  return (
    <label className="choice" htmlFor={id}>
      <input type="radio" id={id} {...rest} />
      <span>
        <span className="choice-label">{label}</span>
        {description && <span className="choice-description">{description}</span>}
      </span>
    </label>
  );
}
