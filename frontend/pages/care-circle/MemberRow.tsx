// A person in a circle: their role (organizers change it), Remove (organizers) or Leave (oneself).
import { t } from "@lingui/core/macro";
import { SelectField } from "../../components/Field";
import { useSchemaForm } from "../../lib/forms";
import { useApiWrite } from "../../lib/query";
import { roleSchema, type RoleValues } from "../../lib/schemas/circle";
import { toast } from "../../lib/toast";
import { ConfirmButton } from "./ConfirmButton";
import { failure, fullName, type Member, type Recipient, type Role, roleHint, roleLabel, roleOptions } from "./common";

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
  const name = fullName(member.user) || member.user.email || t`Someone`;
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
  const firstName = recipient.firstName;
  const path = `/api/care-recipients/${recipient.id}/members/${member.id}`;

  async function saveRole({ role }: RoleValues) {
    try {
      await write.patch(path, { role });
    } catch (error) {
      failure(error, t`Could not change the role`);
      set("role", member.role);
      return;
    }
    toast({
      title: t`Role changed`,
      description: role === "organizer" ? t`${name} is now organizer.` : t`${name} is now member.`,
    });
    await onChanged();
  }

  async function remove(): Promise<boolean> {
    try {
      await write.delete(path);
    } catch (error) {
      failure(error, isMe ? t`Could not leave the circle` : t`Could not remove this person`);
      return false;
    }
    if (isMe) {
      toast({
        title: t`You left the circle`,
        description: t`You are no longer in ${firstName}'s care circle.`,
      });
    } else {
      toast({ title: t`Removed`, description: t`${name} is no longer in the circle.` });
    }
    await onChanged();
    return true;
  }

  return (
    <li className="circle-member" data-testid="circle-member">
      <p className="circle-member-name">
        <strong>{name}</strong>
        {isMe && ` ${t`(you)`}`}
        {member.isRecipient && <span className="badge badge-info">{t`Cared for`}</span>}{" "}
        <span className="badge badge-neutral">{roleLabel(member.role)}</span>
      </p>
      {member.user.email && <p className="muted break">{member.user.email}</p>}
      <div className="actions">
        {organizer && (
          <form className="circle-role-form" onSubmit={(e) => void handleSubmit(saveRole)(e)}>
            <SelectField
              id={`role-${member.id}`}
              label={t`Role of ${name}`}
              hint={roleHint()}
              options={roleOptions()}
              value={role}
              onChange={(e) => set("role", e.target.value as Role)}
              error={message("role")}
            />
            <button type="submit" className="button button-secondary" disabled={role === member.role}>
              {t`Save role`}
            </button>
          </form>
        )}
        {!member.isRecipient && organizer && !isMe && (
          <ConfirmButton
            label={t`Remove ${name}`}
            title={t`Remove ${name} from the circle?`}
            description={t`${name} will no longer see ${firstName}'s visits and messages. You can invite them again later.`}
            confirmLabel={t`Remove`}
            onConfirm={remove}
            testId="remove-member"
          />
        )}
        {!member.isRecipient && isMe && (
          <ConfirmButton
            label={t`Leave this circle`}
            title={t`Leave this care circle?`}
            description={t`You will no longer see ${firstName}'s visits and messages. An organizer can invite you again.`}
            confirmLabel={t`Leave`}
            onConfirm={remove}
            testId="leave-circle"
          />
        )}
      </div>
    </li>
  );
}
