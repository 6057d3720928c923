// "Download the visit record" (organizers): a month of the person's visits as a spreadsheet (CSV) or
// a PDF, with where each check-in was and how each task went. Plain download links.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { InputField } from "../../components/Field";
import type { Recipient } from "./common";

/** This month, as the month field holds it ("2026-11"). */
export function thisMonth(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}`;
}

export function VisitRecordExport({ recipient }: { recipient: Recipient }) {
  const [month, setMonth] = useState(thisMonth);
  const id = `visit-record-${recipient.id}`;
  const valid = /^\d{4}-\d{2}$/.test(month);
  return (
    <div className="visit-record-export" data-testid="visit-record-export">
      <h3>{t`Visit record`}</h3>
      <p>
        {t`Each visit of a month: the service, the helper, when she arrived and left, whether she was at the home, and each task done or not. For your records or a care program.`}
      </p>
      <InputField
        id={`${id}-month`}
        label={t`Month`}
        hint={t`For example 2026-11.`}
        type="month"
        value={month}
        onChange={(e) => setMonth(e.currentTarget.value)}
      />
      {valid ? (
        <div className="paper-downloads">
          <a
            className="button button-secondary"
            href={`/api/recipients/${recipient.id}/visit-record.csv?month=${month}`}
            download
          >
            {t`Download the visits (CSV)`}
          </a>
          <a
            className="button button-secondary"
            href={`/api/recipients/${recipient.id}/visit-record.pdf?month=${month}`}
            download
          >
            {t`Download the visits (PDF)`}
          </a>
        </div>
      ) : (
        <p className="field-hint">{t`Choose a month to download its visits.`}</p>
      )}
    </div>
  );
}
