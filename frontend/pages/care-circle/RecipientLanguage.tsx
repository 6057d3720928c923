// The language of the person cared for: what her helper is chosen to speak (offers prefer a helper
// who speaks it). Organizers choose it, saved at once; members read it.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { SelectField } from "../../components/Field";
import { errorMessage } from "../../lib/api";
import { useApiWrite } from "../../lib/query";
import { LANGUAGE_OPTIONS as OPTIONS, type Recipient } from "./common";

export function RecipientLanguage({ recipient, onChanged }: { recipient: Recipient; onChanged: () => Promise<void> }) {
  const { patch } = useApiWrite();
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const firstName = recipient.firstName;
  const label = t`${firstName}'s language`;
  if (recipient.myRole !== "organizer") {
    const chosen = OPTIONS.find((o) => o.value === recipient.language)?.label ?? recipient.language;
    return <p data-testid="recipient-language">{t`${firstName}'s language: ${chosen}.`}</p>;
  }

  async function choose(language: string) {
    setError("");
    setBusy(true);
    try {
      await patch(`/api/care-recipients/${recipient.id}`, { language });
      await onChanged();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <SelectField
      id={`recipient-language-${recipient.id}`}
      label={label}
      hint={t`Kindly offers her visits first to helpers who speak it.`}
      options={OPTIONS}
      value={recipient.language}
      error={error}
      disabled={busy}
      onChange={(event) => void choose(event.currentTarget.value)}
      data-testid="recipient-language"
    />
  );
}
