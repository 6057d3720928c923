// How the care recipient hears of a visit the evening before, on their own phone: a call from
// Kindly ("press 1 to confirm"), a text, or nothing. Organizers choose; members read the choice.
import { t } from "@lingui/core/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/api";
import { SelectField } from "../../components/Field";
import { apiQuery, useApiWrite } from "../../lib/query";
import { toast } from "../../lib/toast";
import type { PhoneReminderChoice } from "../../lib/types";
import type { Recipient } from "./common";

// A function: the words are read when shown, in the page's language.
const options = () => [
  { value: "call", label: t`A phone call from Kindly` },
  { value: "text", label: t`A text message` },
  { value: "none", label: t`No reminder` },
];

export function PhoneReminder({ recipient }: { recipient: Recipient }) {
  const path = `/api/care-recipients/${recipient.id}/phone-reminder`;
  const client = useQueryClient();
  const { data } = useQuery(apiQuery<PhoneReminderChoice>(path));
  const { put } = useApiWrite();
  const [error, setError] = useState("");
  if (!data) return null;
  const id = `phone-reminder-${recipient.id}`;
  if (recipient.myRole !== "organizer") {
    const chosen = options().find((o) => o.value === data.by)?.label ?? t`No reminder`;
    return <p data-testid="phone-reminder">{t`Reminder the evening before a visit: ${chosen}.`}</p>;
  }

  async function choose(by: string) {
    setError("");
    try {
      client.setQueryData([path], await put<PhoneReminderChoice>(path, { by }));
      const description =
        by === "call"
          ? t`A phone call from Kindly the evening before each visit.`
          : by === "text"
            ? t`A text message the evening before each visit.`
            : t`No reminder the evening before a visit.`;
      toast({ title: t`Reminder saved`, description });
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <SelectField
      id={id}
      label={t`Reminder the evening before a visit`}
      hint={t`Between 5 and 8:30 PM, never later.`}
      options={options()}
      value={data.by}
      error={error}
      onChange={(event) => void choose(event.currentTarget.value)}
    />
  );
}
