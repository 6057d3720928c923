// How the care recipient hears of a visit the evening before, on their own phone: a call from
// Kindly ("press 1 to confirm"), a text, or nothing. Organizers choose; members read the choice.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/api";
import { SelectField } from "../../components/Field";
import { apiQuery, useApiWrite } from "../../lib/query";
import { toast } from "../../lib/toast";
import type { PhoneReminderChoice } from "../../lib/types";
import type { Recipient } from "./common";

const OPTIONS = [
  { value: "call", label: "A phone call from Kindly" },
  { value: "text", label: "A text message" },
  { value: "none", label: "No reminder" },
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
    const chosen = OPTIONS.find((o) => o.value === data.by)?.label ?? "No reminder";
    return <p data-testid="phone-reminder">Reminder the evening before a visit: {chosen}.</p>;
  }

  async function choose(by: string) {
    setError("");
    try {
      client.setQueryData([path], await put<PhoneReminderChoice>(path, { by }));
      const chosen = OPTIONS.find((o) => o.value === by)?.label ?? "No reminder";
      const description =
        by === "none" ? "No reminder the evening before a visit." : `${chosen} the evening before each visit.`;
      toast({ title: "Reminder saved", description });
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <SelectField
      id={id}
      label="Reminder the evening before a visit"
      hint="Between 5 and 8:30 PM, never later."
      options={OPTIONS}
      value={data.by}
      error={error}
      onChange={(event) => void choose(event.currentTarget.value)}
    />
  );
}
