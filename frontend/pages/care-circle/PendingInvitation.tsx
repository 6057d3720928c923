// An invitation waiting for an answer: send it again, or revoke it.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { useApiWrite } from "../../lib/query";
import { toast } from "../../lib/toast";
import { failure, formatDay, type Invitation, roleLabel } from "./common";

export function PendingInvitation({
  recipientId,
  invitation,
  onChanged,
}: {
  recipientId: number;
  invitation: Invitation;
  onChanged: () => Promise<void>;
}) {
  const write = useApiWrite();
  const [busy, setBusy] = useState(false);
  const email = invitation.email;
  async function resend() {
    setBusy(true);
    try {
      // The same role and audience renew the same invitation; anything else would be a new one.
      await write.post(`/api/care-recipients/${recipientId}/invitations`, {
        email: invitation.email,
        role: invitation.role,
        forRecipient: invitation.forRecipient,
      });
    } catch (error) {
      failure(error, t`Could not send the invitation again`);
      setBusy(false);
      return;
    }
    toast({
      title: t`Invitation sent again`,
      description: t`We emailed ${email} a new link that works for 7 days.`,
    });
    setBusy(false);
    await onChanged();
  }
  async function revoke() {
    setBusy(true);
    try {
      await write.delete(`/api/care-invitations/${invitation.id}`);
    } catch (error) {
      failure(error, t`Could not withdraw the invitation`);
      setBusy(false);
      return;
    }
    toast({ title: t`Invitation withdrawn`, description: t`The link sent to ${email} no longer works.` });
    await onChanged();
  }
  const sent = formatDay(invitation.createdAt);
  const until = formatDay(invitation.expiresAt);
  const sentText = t`Sent ${sent}. The link works until ${until}.`;
  return (
    <li className="circle-invitation" data-testid="pending-invitation">
      <p className="break">
        <strong>{invitation.email}</strong> <span className="badge badge-neutral">{roleLabel(invitation.role)}</span>
        {invitation.forRecipient && <span className="badge badge-info">{t`The person cared for`}</span>}
      </p>
      <p className="muted">
        {invitation.expired ? t`This invitation has expired. Send it again for a new link.` : sentText}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => void resend()}
          aria-label={t`Send again to ${email}`}
        >
          {t`Send again`}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => void revoke()}
          aria-label={t`Revoke the invitation to ${email}`}
        >
          {t`Revoke`}
        </button>
      </div>
    </li>
  );
}
