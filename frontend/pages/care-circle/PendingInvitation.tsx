// An invitation waiting for an answer: send it again, or revoke it.
import { useState } from "react";
import { useApiWrite } from "../../lib/query";
import { toast } from "../../lib/toast";
import { failure, formatDay, type Invitation, ROLE_LABEL } from "./common";

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
      failure(error, "Could not send the invitation again");
      setBusy(false);
      return;
    }
    toast({
      title: "Invitation sent again",
      description: `We emailed ${invitation.email} a new link that works for 7 days.`,
    });
    setBusy(false);
    await onChanged();
  }
  async function revoke() {
    setBusy(true);
    try {
      await write.delete(`/api/care-invitations/${invitation.id}`);
    } catch (error) {
      failure(error, "Could not withdraw the invitation");
      setBusy(false);
      return;
    }
    toast({ title: "Invitation withdrawn", description: `The link sent to ${invitation.email} no longer works.` });
    await onChanged();
  }
  return (
    <li className="circle-invitation" data-testid="pending-invitation">
      <p className="break">
        <strong>{invitation.email}</strong> <span className="badge badge-neutral">{ROLE_LABEL[invitation.role]}</span>
        {invitation.forRecipient && <span className="badge badge-info">The person cared for</span>}
      </p>
      <p className="muted">
        {invitation.expired
          ? "This invitation has expired. Send it again for a new link."
          : `Sent ${formatDay(invitation.createdAt)}. The link works until ${formatDay(invitation.expiresAt)}.`}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => void resend()}
          aria-label={`Send again to ${invitation.email}`}
        >
          Send again
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => void revoke()}
          aria-label={`Revoke the invitation to ${invitation.email}`}
        >
          Revoke
        </button>
      </div>
    </li>
  );
}
