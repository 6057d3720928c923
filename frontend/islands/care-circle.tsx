// /care-circle: the people the user cares for (care recipients) and their circles. Each
// recipient is a card: their details, the members and their roles (organizers change roles and
// remove people; a member may leave), invitations by email (organizers: send, see pending,
// withdraw) and emergency contacts. The server enforces every rule; the page only offers what
// the user's role allows and shows the server's own words when something is refused. The
// circle is a TanStack query (lib/query) seeded by the page; each change asks for it again.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Dialog, DialogClose } from "../components/Dialog";
import { EmptyState } from "../components/EmptyState";
import { FieldSet, InputField, SelectField, TextareaField } from "../components/Field";
import { ApiError, errorMessage, isUnauthorizedError } from "../lib/api";
import type { components } from "../lib/api-schema";
import { useSchemaForm } from "../lib/forms";
import { mountQueryIsland, useApiWrite, useSeededQuery } from "../lib/query";
import {
  CONTACT,
  contactSchema,
  EMPTY_CONTACT,
  EMPTY_INVITATION,
  EMPTY_RECIPIENT,
  invitationSchema,
  RECIPIENT_LIMITS,
  recipientSchema,
  roleSchema,
  type ContactValues,
  type InvitationValues,
  type RecipientValues,
  type RoleValues,
} from "../lib/schemas/circle";
import { toast } from "../lib/toast";
import "../styles/care-circle.css";

type Recipient = components["schemas"]["CareRecipient"];
type Member = components["schemas"]["CircleMember"];
type Invitation = components["schemas"]["CircleInvitation"];
type Role = Member["role"];

interface CareCircleProps {
  viewer: { id: string; firstName: string; hasSelf: boolean };
  recipients: Recipient[];
}

const CARE_CIRCLE = "/api/care-circle";

const ROLE_OPTIONS = [
  { value: "member", label: "Member" },
  { value: "organizer", label: "Organizer" },
];
// What each role may do, as a hint under the select: inside the options it made them wider than
// a phone and the chosen one was cut off ("Organizer: also books, pa").
const ROLE_HINT = "Members see visits and messages. Organizers also book, pay and invite.";
const ROLE_LABEL: Record<Role, string> = { organizer: "Organizer", member: "Member" };

const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric" });
}

/** The server's words for a failed call (a lost session is lib/query's). */
function failure(error: unknown, title: string): string {
  if (isUnauthorizedError(error)) return "";
  const message = errorMessage(error);
  toast({ title, description: message, variant: "destructive" });
  return message;
}

function fieldError(error: unknown, field: string): string {
  return error instanceof ApiError ? (error.fieldErrors[field]?.[0] ?? "") : "";
}

/** A person's details: the same fields to add them and to edit them (each form's own values, and
 * its messages, checked on submit). */
function RecipientFields({
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
        label="First name"
        required
        autoComplete="off"
        maxLength={RECIPIENT_LIMITS.firstName}
        {...field("firstName")}
      />
      <InputField
        id={`${idPrefix}-last-name`}
        label="Last name"
        autoComplete="off"
        maxLength={RECIPIENT_LIMITS.lastName}
        {...field("lastName")}
      />
      <FieldSet
        id={`${idPrefix}-address`}
        legend="Home address"
        hint="Where helpers visit. Helpers considering a request see the town and ZIP only; the street goes to the booked helper, while the visit is booked."
      >
        <InputField
          id={`${idPrefix}-street`}
          label="Street address"
          autoComplete="off"
          maxLength={RECIPIENT_LIMITS.street}
          {...field("street")}
        />
        <InputField
          id={`${idPrefix}-unit`}
          label="Apartment or unit (optional)"
          autoComplete="off"
          maxLength={RECIPIENT_LIMITS.unit}
          {...field("unit")}
        />
        <InputField
          id={`${idPrefix}-town`}
          label="Town"
          autoComplete="off"
          maxLength={RECIPIENT_LIMITS.town}
          {...field("town")}
        />
        <div className="form-row">
          <InputField
            id={`${idPrefix}-state`}
            label="State"
            autoComplete="off"
            maxLength={RECIPIENT_LIMITS.state}
            {...field("state")}
          />
          <InputField
            id={`${idPrefix}-zip`}
            label="ZIP"
            inputMode="numeric"
            autoComplete="off"
            maxLength={RECIPIENT_LIMITS.zipCode}
            {...field("zipCode")}
          />
        </div>
      </FieldSet>
      <InputField
        id={`${idPrefix}-phone`}
        label="Phone"
        hint="For the booked helper only."
        type="tel"
        autoComplete="off"
        maxLength={RECIPIENT_LIMITS.phone}
        {...field("phone")}
      />
      <TextareaField
        id={`${idPrefix}-notes`}
        label="Notes for helpers"
        hint="Door codes, keys, what helps (for example: hard of hearing, ring twice). Only the booked helper reads them, while the visit is booked."
        maxLength={RECIPIENT_LIMITS.notesForHelpers}
        rows={3}
        {...field("notesForHelpers")}
      />
    </>
  );
}

type NewRecipientValues = RecipientValues & { isSelf: boolean };
const NEW_RECIPIENT: NewRecipientValues = { ...EMPTY_RECIPIENT, isSelf: false };

function AddRecipientForm({ canAddSelf, onAdded }: { canAddSelf: boolean; onAdded: () => Promise<void> }) {
  const write = useApiWrite();
  const {
    form,
    values,
    set,
    error: message,
    handleSubmit,
    showServerErrors,
  } = useSchemaForm<NewRecipientValues>({
    schema: recipientSchema,
    defaultValues: NEW_RECIPIENT,
    onChange: "none",
  });
  const [busy, setBusy] = useState(false);
  const formError = form.formState.errors.root?.message;

  async function add(sent: NewRecipientValues) {
    setBusy(true);
    try {
      await write.post("/api/care-recipients", sent);
    } catch (error) {
      const message = failure(error, "Could not add this person");
      if (!showServerErrors(error)) form.setError("root", { type: "server", message });
      setBusy(false);
      return;
    }
    form.reset(NEW_RECIPIENT);
    setBusy(false);
    toast({ title: "Added", description: "Their care circle is ready. You can invite family now." });
    await onAdded();
  }

  return (
    <section className="card" aria-labelledby="add-recipient-heading" data-testid="add-recipient">
      <h2 id="add-recipient-heading">Add someone you care for</h2>
      <p className="muted">Only people in their care circle, and the helper you book, see these details.</p>
      <form onSubmit={(e) => void handleSubmit(add)(e)} noValidate>
        {canAddSelf && (
          <label className="choice" htmlFor="recipient-self">
            <input
              id="recipient-self"
              type="checkbox"
              checked={values.isSelf}
              onChange={(e) => set("isSelf", e.target.checked)}
            />
            <span>This is me: I am arranging help for myself</span>
          </label>
        )}
        <RecipientFields values={values} set={set} message={message} idPrefix="recipient" />
        {formError && (
          <p className="page-message" role="alert">
            {formError}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? "Adding…" : "Add to my care circles"}
          </button>
        </div>
      </form>
    </section>
  );
}

function ConfirmButton({
  label,
  title,
  description,
  confirmLabel,
  onConfirm,
  testId,
}: {
  label: string;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => Promise<boolean>;
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={title}
      description={description}
      trigger={
        <button type="button" className="button button-secondary" data-testid={testId}>
          {label}
        </button>
      }
      footer={
        <>
          <DialogClose className="button button-secondary">Keep</DialogClose>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void onConfirm().then((done) => {
                setBusy(false);
                if (done) setOpen(false);
              });
            }}
          >
            {confirmLabel}
          </button>
        </>
      }
    />
  );
}

function MemberRow({
  recipient,
  member,
  viewerId,
  onChanged,
}: {
  recipient: Recipient;
  member: Member;
  viewerId: string;
  onChanged: () => Promise<void>;
}) {
  const write = useApiWrite();
  const organizer = recipient.myRole === "organizer";
  const isMe = member.user.id === viewerId;
  const name = fullName(member.user) || member.user.email || "Someone";
  const {
    values,
    set,
    error: message,
    handleSubmit,
  } = useSchemaForm<RoleValues>({
    schema: roleSchema,
    defaultValues: { role: member.role },
    onChange: "none",
  });
  const role = values.role;
  const path = `/api/care-recipients/${recipient.id}/members/${member.id}`;

  async function saveRole({ role }: RoleValues) {
    try {
      await write.patch(path, { role });
    } catch (error) {
      failure(error, "Could not change the role");
      set("role", member.role);
      return;
    }
    toast({ title: "Role changed", description: `${name} is now ${ROLE_LABEL[role].toLowerCase()}.` });
    await onChanged();
  }

  async function remove(): Promise<boolean> {
    try {
      await write.delete(path);
    } catch (error) {
      failure(error, isMe ? "Could not leave the circle" : "Could not remove this person");
      return false;
    }
    if (isMe) {
      toast({
        title: "You left the circle",
        description: `You are no longer in ${recipient.firstName}'s care circle.`,
      });
    } else {
      toast({ title: "Removed", description: `${name} is no longer in the circle.` });
    }
    await onChanged();
    return true;
  }

  return (
    <li className="circle-member" data-testid="circle-member">
      <p className="circle-member-name">
        <strong>{name}</strong>
        {isMe && " (you)"}
        {member.isRecipient && <span className="badge badge-info">Cared for</span>}{" "}
        <span className="badge badge-neutral">{ROLE_LABEL[member.role]}</span>
      </p>
      {member.user.email && <p className="muted break">{member.user.email}</p>}
      <div className="actions">
        {organizer && (
          <form className="circle-role-form" onSubmit={(e) => void handleSubmit(saveRole)(e)}>
            <SelectField
              id={`role-${member.id}`}
              label={`Role of ${name}`}
              hint={ROLE_HINT}
              options={ROLE_OPTIONS}
              value={role}
              onChange={(e) => set("role", e.target.value as Role)}
              error={message("role")}
            />
            <button type="submit" className="button button-secondary" disabled={role === member.role}>
              Save role
            </button>
          </form>
        )}
        {!member.isRecipient && organizer && !isMe && (
          <ConfirmButton
            label={`Remove ${name}`}
            title={`Remove ${name} from the circle?`}
            description={`${name} will no longer see ${recipient.firstName}'s visits and messages. You can invite them again later.`}
            confirmLabel="Remove"
            onConfirm={remove}
            testId="remove-member"
          />
        )}
        {!member.isRecipient && isMe && (
          <ConfirmButton
            label="Leave this circle"
            title="Leave this care circle?"
            description={`You will no longer see ${recipient.firstName}'s visits and messages. An organizer can invite you again.`}
            confirmLabel="Leave"
            onConfirm={remove}
            testId="leave-circle"
          />
        )}
      </div>
    </li>
  );
}

function InviteForm({ recipient, onChanged }: { recipient: Recipient; onChanged: () => Promise<void> }) {
  const write = useApiWrite();
  const {
    form,
    values,
    set,
    error: message,
    handleSubmit,
  } = useSchemaForm<InvitationValues>({
    schema: invitationSchema,
    defaultValues: EMPTY_INVITATION,
    onChange: "none",
  });
  const { email, role, forRecipient } = values;
  // One message, under the email (the role is a choice of two): the email's, else the role's.
  const error = message("email") || message("role");
  const [busy, setBusy] = useState(false);
  const id = `invite-${recipient.id}`;
  const recipientHasAccount = recipient.members.some((m) => m.isRecipient);

  async function invite(sent: InvitationValues) {
    setBusy(true);
    const email = sent.email.trim();
    try {
      await write.post(`/api/care-recipients/${recipient.id}/invitations`, {
        email,
        role: sent.role,
        forRecipient: sent.forRecipient && !recipientHasAccount,
      });
    } catch (err) {
      const message = failure(err, "Could not send the invitation");
      form.setError("email", {
        type: "server",
        message: fieldError(err, "email") || fieldError(err, "role") || message,
      });
      setBusy(false);
      return;
    }
    toast({ title: "Invitation sent", description: `We emailed ${email} a link that works for 7 days.` });
    form.reset(EMPTY_INVITATION);
    setBusy(false);
    await onChanged();
  }

  return (
    <form onSubmit={(e) => void handleSubmit(invite)(e)} noValidate data-testid="invite-form">
      <h4>Invite someone by email</h4>
      <InputField
        id={`${id}-email`}
        label="Email address"
        type="email"
        autoComplete="off"
        value={email}
        onChange={(e) => set("email", e.target.value)}
        error={error}
        required
      />
      <SelectField
        id={`${id}-role`}
        label="Role"
        hint={ROLE_HINT}
        options={ROLE_OPTIONS}
        value={role}
        onChange={(e) => set("role", e.target.value as Role)}
      />
      {!recipientHasAccount && (
        <label className="choice" htmlFor={`${id}-for-recipient`}>
          <input
            id={`${id}-for-recipient`}
            type="checkbox"
            checked={forRecipient}
            onChange={(e) => set("forRecipient", e.target.checked)}
          />
          <span>This invitation is for {recipient.firstName} themself</span>
        </label>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Sending…" : "Send invitation"}
        </button>
      </div>
    </form>
  );
}

function PendingInvitation({
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

function EditRecipient({ recipient, onChanged }: { recipient: Recipient; onChanged: () => Promise<void> }) {
  const write = useApiWrite();
  const initial: RecipientValues = {
    firstName: recipient.firstName,
    lastName: recipient.lastName,
    street: recipient.street,
    unit: recipient.unit,
    town: recipient.town,
    state: recipient.state,
    zipCode: recipient.zipCode,
    phone: recipient.phone,
    notesForHelpers: recipient.notesForHelpers,
  };
  const [open, setOpen] = useState(false);
  const {
    form,
    values,
    set,
    error: message,
    handleSubmit,
    showServerErrors,
  } = useSchemaForm<RecipientValues>({
    schema: recipientSchema,
    defaultValues: initial,
    onChange: "none",
  });
  const [busy, setBusy] = useState(false);

  if (!open) {
    return (
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            form.reset(initial);
            setOpen(true);
          }}
        >
          Edit {recipient.firstName}&apos;s details
        </button>
      </div>
    );
  }

  async function save(sent: RecipientValues) {
    setBusy(true);
    try {
      await write.patch(`/api/care-recipients/${recipient.id}`, sent);
    } catch (error) {
      const message = failure(error, "Could not save the details");
      if (!showServerErrors(error)) form.setError("firstName", { type: "server", message });
      setBusy(false);
      return;
    }
    setBusy(false);
    setOpen(false);
    toast({ title: "Saved", description: "The details are up to date." });
    await onChanged();
  }

  return (
    <form onSubmit={(e) => void handleSubmit(save)(e)} noValidate data-testid="edit-recipient">
      <h3>Edit {recipient.firstName}&apos;s details</h3>
      <RecipientFields values={values} set={set} message={message} idPrefix={`edit-${recipient.id}`} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Saving…" : "Save details"}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function RecipientCard({
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
        {recipient.isSelf ? `${name} (you)` : name}
        <span className="badge badge-neutral">You are {ROLE_LABEL[recipient.myRole].toLowerCase()}</span>
      </h2>
      <dl className="details">
        <div className="detail">
          <dt>Address</dt>
          <dd className="break">{recipient.address || "Not given yet"}</dd>
        </div>
        <div className="detail">
          <dt>Phone</dt>
          <dd>{recipient.phone || "Not given yet"}</dd>
        </div>
        <div className="detail">
          <dt>Notes for helpers</dt>
          <dd className="break">{recipient.notesForHelpers || "None"}</dd>
        </div>
      </dl>
      {organizer && <EditRecipient recipient={recipient} onChanged={onChanged} />}

      <h3>People in the circle</h3>
      <ul className="circle-members list-plain">
        {recipient.members.map((member) => (
          <MemberRow key={member.id} recipient={recipient} member={member} viewerId={viewerId} onChanged={onChanged} />
        ))}
      </ul>

      {organizer && (
        <>
          <InviteForm recipient={recipient} onChanged={onChanged} />
          <h4>Invitations waiting for an answer</h4>
          {recipient.invitations.length === 0 ? (
            <p className="muted" data-testid="no-invitations">
              No invitations are waiting.
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

      <h3>Emergency contacts</h3>
      {recipient.emergencyContacts.length === 0 ? (
        <p className="muted" data-testid="no-emergency-contacts">
          No emergency contacts yet.
        </p>
      ) : (
        <ul className="list-plain" data-testid="emergency-contacts">
          {recipient.emergencyContacts.map((contact) => (
            <ContactRow key={contact.id} contact={contact} canEdit={organizer} onChanged={onChanged} />
          ))}
        </ul>
      )}
      {organizer && <EmergencyContactForm recipient={recipient} onChanged={onChanged} />}
    </section>
  );
}

type Contact = Recipient["emergencyContacts"][number];

function ContactRow({
  contact,
  canEdit,
  onChanged,
}: {
  contact: Contact;
  canEdit: boolean;
  onChanged: () => Promise<void>;
}) {
  const write = useApiWrite();
  async function remove(): Promise<boolean> {
    try {
      await write.delete(`/api/emergency-contacts/${contact.id}`);
    } catch (error) {
      failure(error, "Could not remove the contact");
      return false;
    }
    toast({ title: "Contact removed", description: `${contact.name} is no longer an emergency contact.` });
    await onChanged();
    return true;
  }
  return (
    <li className="circle-contact" data-testid="emergency-contact">
      <p>
        <strong>{contact.name}</strong>
        {contact.relationship && `, ${contact.relationship}`}: {contact.phone}
        {contact.isPrimary && <span className="badge badge-info">Primary</span>}
      </p>
      {canEdit && (
        <div className="actions">
          <ConfirmButton
            label={`Remove ${contact.name}`}
            title={`Remove ${contact.name}?`}
            description="They will no longer be listed as an emergency contact for the circle and the helpers."
            confirmLabel="Remove"
            onConfirm={remove}
            testId="remove-contact"
          />
        </div>
      )}
    </li>
  );
}

function EmergencyContactForm({ recipient, onChanged }: { recipient: Recipient; onChanged: () => Promise<void> }) {
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
      const message = failure(error, "Could not add the contact");
      if (!showServerErrors(error)) form.setError("name", { type: "server", message });
      setBusy(false);
      return;
    }
    form.reset(EMPTY_CONTACT);
    setBusy(false);
    toast({ title: "Contact added", description: "The circle can see it." });
    await onChanged();
  }

  return (
    <form onSubmit={(e) => void handleSubmit(add)(e)} noValidate data-testid="contact-form">
      <h4>Add an emergency contact</h4>
      <InputField
        id={`${id}-name`}
        label="Name"
        required
        autoComplete="off"
        maxLength={CONTACT.name.maxLength}
        value={values.name}
        onChange={(e) => set("name", e.target.value)}
        error={message("name")}
      />
      <InputField
        id={`${id}-relationship`}
        label="Relationship"
        autoComplete="off"
        maxLength={CONTACT.relationship.maxLength}
        value={values.relationship}
        onChange={(e) => set("relationship", e.target.value)}
        error={message("relationship")}
      />
      <InputField
        id={`${id}-phone`}
        label="Phone number"
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
          Add contact
        </button>
      </div>
    </form>
  );
}

function CareCircle({ viewer, recipients: initial }: CareCircleProps) {
  const client = useQueryClient();
  const circle = useSeededQuery<Recipient[]>(CARE_CIRCLE, initial);
  const recipients = circle.data;
  const refreshError = circle.error;
  useEffect(() => {
    if (refreshError) failure(refreshError, "Could not refresh the page");
  }, [refreshError]);

  async function reload() {
    await client.invalidateQueries({ queryKey: [CARE_CIRCLE] });
  }

  const hasSelf = recipients.some((r) => r.isSelf) || viewer.hasSelf;
  return (
    <>
      {recipients.length === 0 ? (
        <EmptyState title="Add the person you care for, or yourself" headingLevel={2} testId="care-circle-empty">
          <p>
            A care circle lets your family share the care of someone: everyone sees the visits booked for them and the
            messages with helpers.
          </p>
        </EmptyState>
      ) : (
        recipients.map((recipient) => (
          <RecipientCard key={recipient.id} recipient={recipient} viewerId={viewer.id} onChanged={reload} />
        ))
      )}
      <AddRecipientForm canAddSelf={!hasSelf} onAdded={reload} />
    </>
  );
}

mountQueryIsland(CareCircle, "care-circle");
