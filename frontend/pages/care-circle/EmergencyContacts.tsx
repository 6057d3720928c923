// A circle's emergency contacts: each one (organizers may remove it) and the form to add one.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { InputField } from "../../components/Field";
import { useSchemaForm } from "../../lib/forms";
import { useApiWrite } from "../../lib/query";
import { CONTACT, contactSchema, type ContactValues, EMPTY_CONTACT } from "../../lib/schemas/circle";
import { toast } from "../../lib/toast";
import { ConfirmButton } from "./ConfirmButton";
import { failure, type Recipient } from "./common";

type Contact = Recipient["emergencyContacts"][number];

export function ContactRow({
  contact,
  canEdit,
  onChanged,
}: {
  contact: Contact;
  canEdit: boolean;
  onChanged: () => Promise<void>;
}) {
  const write = useApiWrite();
  const name = contact.name;
  async function remove(): Promise<boolean> {
    try {
      await write.delete(`/api/emergency-contacts/${contact.id}`);
    } catch (error) {
      failure(error, t`Could not remove the contact`);
      return false;
    }
    toast({ title: t`Contact removed`, description: t`${name} is no longer an emergency contact.` });
    await onChanged();
    return true;
  }
  return (
    <li className="circle-contact" data-testid="emergency-contact">
      <p>
        <strong>{contact.name}</strong>
        {contact.relationship && `, ${contact.relationship}`}: {contact.phone}
        {contact.isPrimary && <span className="badge badge-info">{t`Primary`}</span>}
      </p>
      {canEdit && (
        <div className="actions">
          <ConfirmButton
            label={t`Remove ${name}`}
            title={t`Remove ${name}?`}
            description={t`They will no longer be listed as an emergency contact for the circle and the helpers.`}
            confirmLabel={t`Remove`}
            onConfirm={remove}
            testId="remove-contact"
          />
        </div>
      )}
    </li>
  );
}

export function EmergencyContactForm({
  recipient,
  onChanged,
}: {
  recipient: Recipient;
  onChanged: () => Promise<void>;
}) {
  const write = useApiWrite();
  const {
    form,
    values,
    set,
    error: message,
    handleSubmit,
    showServerErrors,
  } = useSchemaForm<ContactValues>({
    schema: contactSchema,
    defaultValues: EMPTY_CONTACT,
    onChange: "none",
  });
  const [busy, setBusy] = useState(false);
  const id = `contact-${recipient.id}`;

  async function add(sent: ContactValues) {
    setBusy(true);
    try {
      await write.post("/api/emergency-contacts", { ...sent, recipientId: recipient.id });
    } catch (error) {
      const message = failure(error, t`Could not add the contact`);
      if (!showServerErrors(error)) form.setError("name", { type: "server", message });
      setBusy(false);
      return;
    }
    form.reset(EMPTY_CONTACT);
    setBusy(false);
    toast({ title: t`Contact added`, description: t`The circle can see it.` });
    await onChanged();
  }

  return (
    <form onSubmit={(e) => void handleSubmit(add)(e)} noValidate data-testid="contact-form">
      <h4>{t`Add an emergency contact`}</h4>
      <InputField
        id={`${id}-name`}
        label={t`Name`}
        required
        autoComplete="off"
        maxLength={CONTACT.name.maxLength}
        value={values.name}
        onChange={(e) => set("name", e.target.value)}
        error={message("name")}
      />
      <InputField
        id={`${id}-relationship`}
        label={t`Relationship`}
        autoComplete="off"
        maxLength={CONTACT.relationship.maxLength}
        value={values.relationship}
        onChange={(e) => set("relationship", e.target.value)}
        error={message("relationship")}
      />
      <InputField
        id={`${id}-phone`}
        label={t`Phone number`}
        type="tel"
        required
        autoComplete="off"
        maxLength={CONTACT.phone.maxLength}
        value={values.phone}
        onChange={(e) => set("phone", e.target.value)}
        error={message("phone")}
      />
      <div className="actions">
        <button type="submit" className="button button-secondary" disabled={busy}>
          {t`Add contact`}
        </button>
      </div>
    </form>
  );
}
