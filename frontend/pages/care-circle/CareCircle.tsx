// /care-circle: the people the user cares for (care recipients) and their circles. Each
// recipient is a card: their details, the members and their roles (organizers change roles and
// remove people; a member may leave), invitations by email (organizers: send, see pending,
// withdraw) and emergency contacts. The server enforces every rule; the page only offers what
// the user's role allows and shows the server's own words when something is refused. The
// circle is a TanStack query (lib/query) seeded by the page; each change asks for it again.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { EmptyState } from "../../components/EmptyState";
import { useSeededQuery } from "../../lib/query";
import { AddRecipientForm } from "./AddRecipientForm";
import { RecipientCard } from "./RecipientCard";
import { CARE_CIRCLE, failure, type Recipient } from "./common";
import "../../styles/care-circle.css";

interface CareCircleProps {
  viewer: { id: string; firstName: string; hasSelf: boolean };
  recipients: Recipient[];
}

export function CareCircle({ viewer, recipients: initial }: CareCircleProps) {
  const client = useQueryClient();
  const circle = useSeededQuery<Recipient[]>(CARE_CIRCLE, initial);
  const recipients = circle.data;
  const refreshError = circle.error;
  useEffect(() => {
    if (refreshError) failure(refreshError, t`Could not refresh the page`);
  }, [refreshError]);

  async function reload() {
    await client.invalidateQueries({ queryKey: [CARE_CIRCLE] });
  }

  const hasSelf = recipients.some((r) => r.isSelf) || viewer.hasSelf;
  return (
    <>
      {recipients.length === 0 ? (
        <EmptyState title={t`Add the person you care for, or yourself`} headingLevel={2} testId="care-circle-empty">
          <p>
            <Trans>
              A care circle lets your family share the care of someone: everyone sees the visits booked for them and the
              messages with helpers.
            </Trans>
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
