// One person cared for and their circle: details, people, invitations and emergency contacts.
import { t } from "@lingui/core/macro";
import { EditRecipient } from "./EditRecipient";
import { ContactRow, EmergencyContactForm } from "./EmergencyContacts";
import { InviteForm } from "./InviteForm";
import { MemberRow } from "./MemberRow";
import { PendingInvitation } from "./PendingInvitation";
import { PhonePin } from "./PhonePin";
import { StatementExport } from "./StatementExport";
import { RecipientLanguage } from "./RecipientLanguage";
import { VisitRecordExport } from "./VisitRecordExport";
import { fullName, type Recipient } from "./common";

export function RecipientCard({
  recipient,
  viewerId,
  onChanged,
}: {
  recipient: Recipient;
  viewerId: string;
  onChanged: () => Promise<void>;
}) {
  const organizer = recipient.myRole === "organizer";
  const name = fullName(recipient);
  const headingId = `recipient-${recipient.id}-heading`;
  return (
    <section className="card care-recipient" aria-labelledby={headingId} data-testid="care-recipient">
      <h2 id={headingId}>
        {recipient.isSelf ? t`${name} (you)` : name}
        <span className="badge badge-neutral">{organizer ? t`You are organizer` : t`You are member`}</span>
      </h2>
      <dl className="details">
        <div className="detail">
          <dt>{t`Address`}</dt>
          <dd className="break">{recipient.address || t`Not given yet`}</dd>
        </div>
        <div className="detail">
          <dt>{t`Phone`}</dt>
          <dd>{recipient.phone || t`Not given yet`}</dd>
        </div>
        <div className="detail">
          <dt>{t`Notes for helpers`}</dt>
          <dd className="break">{recipient.notesForHelpers || t`None`}</dd>
        </div>
      </dl>
      {organizer && <EditRecipient recipient={recipient} onChanged={onChanged} />}
      <RecipientLanguage recipient={recipient} onChanged={onChanged} />
      <PhonePin recipient={recipient} />

      <h3>{t`People in the circle`}</h3>
      <ul className="circle-members list-plain">
        {recipient.members.map((member) => (
          <MemberRow key={member.id} recipient={recipient} member={member} viewerId={viewerId} onChanged={onChanged} />
        ))}
      </ul>

      {organizer && (
        <>
          <InviteForm recipient={recipient} onChanged={onChanged} />
          <h4>{t`Invitations waiting for an answer`}</h4>
          {recipient.invitations.length === 0 ? (
            <p className="muted" data-testid="no-invitations">
              {t`No invitations are waiting.`}
            </p>
          ) : (
            <ul className="circle-invitations list-plain">
              {recipient.invitations.map((invitation) => (
                <PendingInvitation
                  key={invitation.id}
                  recipientId={recipient.id}
                  invitation={invitation}
                  onChanged={onChanged}
                />
              ))}
            </ul>
          )}
        </>
      )}

      <h3>{t`Emergency contacts`}</h3>
      {recipient.emergencyContacts.length === 0 ? (
        <p className="muted" data-testid="no-emergency-contacts">
          {t`No emergency contacts yet.`}
        </p>
      ) : (
        <ul className="list-plain" data-testid="emergency-contacts">
          {recipient.emergencyContacts.map((contact) => (
            <ContactRow key={contact.id} contact={contact} canEdit={organizer} onChanged={onChanged} />
          ))}
        </ul>
      )}
      {organizer && <EmergencyContactForm recipient={recipient} onChanged={onChanged} />}
      {organizer && <VisitRecordExport recipient={recipient} />}
      {organizer && <StatementExport recipient={recipient} />}
    </section>
  );
}
