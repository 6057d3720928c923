// "Statement of a month" (organizers): the month's paid visits with amounts, fees and refunds, as a
// PDF to file with an insurer or for taxes, or as a spreadsheet (CSV). Plain download links.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { InputField } from "../../components/Field";
import type { Recipient } from "./common";
import { thisMonth } from "./VisitRecordExport";

export function StatementExport({ recipient }: { recipient: Recipient }) {
  const [month, setMonth] = useState(thisMonth);
  const id = `statement-${recipient.id}`;
  const valid = /^\d{4}-\d{2}$/.test(month);
  const firstName = recipient.firstName;
  const base = `/api/recipients/${recipient.id}/statement`;
  return (
    <div className="statement-export" data-testid="statement-export">
      <h3>{t`Receipts and statements`}</h3>
      <p>
        {t`What was paid for ${firstName}'s visits in a month: dates, helper, service, hours, amounts, fees and refunds. Long-term care insurers ask for this. Each paid visit also has its own receipt on the dashboard.`}
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
          <a className="button button-secondary" href={`${base}.pdf?month=${month}`} download>
            {t`Download the statement (PDF)`}
          </a>
          <a className="button button-secondary" href={`${base}.csv?month=${month}`} download>
            {t`Download the statement (CSV)`}
          </a>
        </div>
      ) : (
        <p className="field-hint">{t`Choose a month to download its statement.`}</p>
      )}
    </div>
  );
}
