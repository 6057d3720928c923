// "Invite someone by email" into a circle, as a member or an organizer (organizers only).
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { InputField, SelectField } from "../../components/Field";
import { useSchemaForm } from "../../lib/forms";
import { useApiWrite } from "../../lib/query";
import { pageLocale } from "../../lib/i18n";
import { emptyInvitation, invitationSchema, type InvitationValues } from "../../lib/schemas/circle";
import { toast } from "../../lib/toast";
import { failure, fieldError, LANGUAGE_OPTIONS, type Recipient, type Role, roleHint, roleOptions } from "./common";

export function InviteForm({ recipient, onChanged }: { recipient: Recipient; onChanged: () => Promise<void> }) {
  const write = useApiWrite();
  const empty = emptyInvitation(pageLocale());
  const {
    form,
    values,
    set,
    error: message,
    handleSubmit,
  } = useSchemaForm<InvitationValues>({
    schema: invitationSchema,
    defaultValues: empty,
    onChange: "none",
  });
  const { email, role, forRecipient, language } = values;
  // One message, under the email (the role is a choice of two): the email's, else the role's.
  const error = message("email") || message("role");
  const [busy, setBusy] = useState(false);
  const id = `invite-${recipient.id}`;
  const firstName = recipient.firstName;
  const recipientHasAccount = recipient.members.some((m) => m.isRecipient);

  async function invite(sent: InvitationValues) {
    setBusy(true);
    const email = sent.email.trim();
    try {
      await write.post(`/api/care-recipients/${recipient.id}/invitations`, {
        email,
        role: sent.role,
        forRecipient: sent.forRecipient && !recipientHasAccount,
        language: sent.language,
      });
    } catch (err) {
      const message = failure(err, t`Could not send the invitation`);
      form.setError("email", {
        type: "server",
        message: fieldError(err, "email") || fieldError(err, "role") || message,
      });
      setBusy(false);
      return;
    }
    toast({ title: t`Invitation sent`, description: t`We emailed ${email} a link that works for 7 days.` });
    form.reset(empty);
    setBusy(false);
    await onChanged();
  }

  return (
    <form onSubmit={(e) => void handleSubmit(invite)(e)} noValidate data-testid="invite-form">
      <h4>{t`Invite someone by email`}</h4>
      <InputField
        id={`${id}-email`}
        label={t`Email address`}
        type="email"
        autoComplete="off"
        value={email}
        onChange={(e) => set("email", e.target.value)}
        error={error}
        required
      />
      <SelectField
        id={`${id}-role`}
        label={t`Role`}
        hint={roleHint()}
        options={roleOptions()}
        value={role}
        onChange={(e) => set("role", e.target.value as Role)}
      />
      <SelectField
        id={`${id}-language`}
        label={t`Language of the email`}
        hint={t`For someone without a Kindly account yet. Someone with an account gets it in their own language.`}
        options={LANGUAGE_OPTIONS}
        value={language}
        onChange={(e) => set("language", e.target.value as InvitationValues["language"])}
      />
      {!recipientHasAccount && (
        <label className="choice" htmlFor={`${id}-for-recipient`}>
          <input
            id={`${id}-for-recipient`}
            type="checkbox"
            checked={forRecipient}
            onChange={(e) => set("forRecipient", e.target.checked)}
          />
          <span>{t`This invitation is for ${firstName} themself`}</span>
        </label>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t`Sending…` : t`Send invitation`}
        </button>
      </div>
    </form>
  );
}
