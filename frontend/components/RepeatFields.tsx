// "Repeat" on the request forms (recurring visits): how often, and when the series ends
// (after a number of visits or on a date), with a live summary of the visits' dates. The errors
// sit under their fields, the server's too.
import { t } from "@lingui/core/macro";
import { FieldSet, InputField, RadioOption, SelectField } from "./Field";
import {
  REPEATS,
  SERIES_MAX_VISITS,
  SERIES_MIN_VISITS,
  seriesDates,
  seriesSummary,
  type Repeat,
  type RepeatValues,
} from "../lib/series";

interface Props {
  /** The ids' prefix: "request" gives request-repeat, request-repeatCount… */
  idPrefix: string;
  values: RepeatValues;
  /** The first visit's date ("YYYY-MM-DD" or ""). */
  firstDate: string;
  errors: Partial<Record<keyof RepeatValues, string>>;
  onChange: (changes: Partial<RepeatValues>) => void;
}

export function RepeatFields({ idPrefix, values, firstDate, errors, onChange }: Props) {
  const dates = values.repeat
    ? seriesDates(
        firstDate,
        values.repeat,
        values.repeatEnds === "count" ? Math.min(Number(values.repeatCount) || 0, SERIES_MAX_VISITS + 1) : null,
        values.repeatEnds === "until" ? values.repeatUntil : null,
      )
    : [];
  return (
    <div className="repeat-fields">
      <SelectField
        id={`${idPrefix}-repeat`}
        label={t`Repeat`}
        hint={t`A repeating visit keeps the same weekday and time, with the same helper.`}
        options={REPEATS.map((r) => ({ value: r.value, label: r.label }))}
        value={values.repeat}
        onChange={(e) => onChange({ repeat: e.target.value as Repeat })}
        error={errors.repeat}
      />
      {values.repeat && (
        <>
          <FieldSet id={`${idPrefix}-repeatEnds`} legend={t`Ends`}>
            <div className="choices-grid">
              <RadioOption
                id={`${idPrefix}-repeatEnds-count`}
                name={`${idPrefix}-repeatEnds`}
                value="count"
                checked={values.repeatEnds === "count"}
                onChange={() => onChange({ repeatEnds: "count" })}
                label={t`After a number of visits`}
              />
              <RadioOption
                id={`${idPrefix}-repeatEnds-until`}
                name={`${idPrefix}-repeatEnds`}
                value="until"
                checked={values.repeatEnds === "until"}
                onChange={() => onChange({ repeatEnds: "until" })}
                label={t`On a date`}
              />
            </div>
          </FieldSet>
          {values.repeatEnds === "count" ? (
            <InputField
              id={`${idPrefix}-repeatCount`}
              label={t`Number of visits`}
              hint={t`From ${SERIES_MIN_VISITS} to ${SERIES_MAX_VISITS} visits.`}
              type="number"
              inputMode="numeric"
              min={SERIES_MIN_VISITS}
              max={SERIES_MAX_VISITS}
              value={values.repeatCount}
              onChange={(e) => onChange({ repeatCount: e.target.value })}
              error={errors.repeatCount}
            />
          ) : (
            <InputField
              id={`${idPrefix}-repeatUntil`}
              label={t`Last visit on or before`}
              type="date"
              min={firstDate || undefined}
              value={values.repeatUntil}
              onChange={(e) => onChange({ repeatUntil: e.target.value })}
              error={errors.repeatUntil}
            />
          )}
          <p className="muted" aria-live="polite" data-testid={`${idPrefix}-series-summary`}>
            {!firstDate
              ? t`Choose the date of the first visit to see the dates.`
              : dates.length > 1
                ? seriesSummary(dates.slice(0, SERIES_MAX_VISITS)) +
                  (dates.length > SERIES_MAX_VISITS ? t` (more than ${SERIES_MAX_VISITS}: too many)` : "")
                : ""}
          </p>
        </>
      )}
    </div>
  );
}
