// A person's details on /care-circle: name, home address in parts, phone and notes for helpers.
import { t } from "@lingui/core/macro";
import { FieldSet, InputField, TextareaField } from "../../components/Field";
import { RECIPIENT_LIMITS, type RecipientValues } from "../../lib/schemas/circle";

/** A person's details: the same fields to add them and to edit them (each form's own values, and
 * its messages, checked on submit). */
export function RecipientFields({
  values,
  set,
  message,
  idPrefix,
}: {
  values: RecipientValues;
  set: (name: keyof RecipientValues, value: string) => void;
  message: (name: keyof RecipientValues) => string;
  idPrefix: string;
}) {
  const field = (name: keyof RecipientValues) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
    error: message(name),
  });
  return (
    <>
      <InputField
        id={`${idPrefix}-first-name`}
        label={t`First name`}
        required
        autoComplete="off"
        maxLength={RECIPIENT_LIMITS.firstName}
        {...field("firstName")}
      />
      <InputField
        id={`${idPrefix}-last-name`}
        label={t`Last name`}
        autoComplete="off"
        maxLength={RECIPIENT_LIMITS.lastName}
        {...field("lastName")}
      />
      <FieldSet
        id={`${idPrefix}-address`}
        legend={t`Home address`}
        hint={t`Where helpers visit. Helpers considering a request see the town and ZIP only; the street goes to the booked helper, while the visit is booked.`}
      >
        <InputField
          id={`${idPrefix}-street`}
          label={t`Street address`}
          autoComplete="off"
          maxLength={RECIPIENT_LIMITS.street}
          {...field("street")}
        />
        <InputField
          id={`${idPrefix}-unit`}
          label={t`Apartment or unit (optional)`}
          autoComplete="off"
          maxLength={RECIPIENT_LIMITS.unit}
          {...field("unit")}
        />
        <InputField
          id={`${idPrefix}-town`}
          label={t`Town`}
          autoComplete="off"
          maxLength={RECIPIENT_LIMITS.town}
          {...field("town")}
        />
        <div className="form-row">
          <InputField
            id={`${idPrefix}-state`}
            label={t`State`}
            autoComplete="off"
            maxLength={RECIPIENT_LIMITS.state}
            {...field("state")}
          />
          <InputField
            id={`${idPrefix}-zip`}
            label={t`ZIP`}
            inputMode="numeric"
            autoComplete="off"
            maxLength={RECIPIENT_LIMITS.zipCode}
            {...field("zipCode")}
          />
        </div>
      </FieldSet>
      <InputField
        id={`${idPrefix}-phone`}
        label={t`Phone`}
        hint={t`For the booked helper only.`}
        type="tel"
        autoComplete="off"
        maxLength={RECIPIENT_LIMITS.phone}
        {...field("phone")}
      />
      <TextareaField
        id={`${idPrefix}-notes`}
        label={t`Notes for helpers`}
        hint={t`Door codes, keys, what helps (for example: hard of hearing, ring twice). Only the booked helper reads them, while the visit is booked.`}
        maxLength={RECIPIENT_LIMITS.notesForHelpers}
        rows={3}
        {...field("notesForHelpers")}
      />
    </>
  );
}
