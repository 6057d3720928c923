// A person in a circle: their role (organizers change it), Remove (organizers) or Leave (oneself).
import { SelectField } from "../../components/Field";
import { useSchemaForm } from "../../lib/forms";
import { useApiWrite } from "../../lib/query";
import { roleSchema, type RoleValues } from "../../lib/schemas/circle";
import { toast } from "../../lib/toast";
import { ConfirmButton } from "./ConfirmButton";
import {
  failure,
  fullName,
  type Member,
  type Recipient,
  type Role,
  ROLE_HINT,
  ROLE_LABEL,
  ROLE_OPTIONS,
} from "./common";

export function MemberRow({
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
