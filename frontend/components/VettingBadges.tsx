// What was checked about a helper, and when: "ID verified November 2026", "Background checked
// March 2026, re-checked yearly". A check without a date is never claimed: it says plainly that
// it is not done yet. Shown on her profile page (/providers/{id}) and on the booking card.
import { t } from "@lingui/core/macro";
import { intlLocale } from "../lib/i18n";
import "../styles/people.css";

/** "November 2026", or "" when there is no date. */
export function monthYear(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleDateString(intlLocale(), { month: "long", year: "numeric" });
}

export function vettingLines(dates: {
  identityVerifiedAt?: string | null;
  backgroundCheckedAt?: string | null;
}): { key: string; done: boolean; text: string }[] {
  const id = monthYear(dates.identityVerifiedAt);
  const background = monthYear(dates.backgroundCheckedAt);
  return [
    { key: "identity", done: !!id, text: id ? t`ID verified ${id}` : t`ID not verified yet` },
    {
      key: "background",
      done: !!background,
      text: background ? t`Background checked ${background}, re-checked yearly` : t`Background check not done yet`,
    },
  ];
}

export function VettingBadges({
  identityVerifiedAt,
  backgroundCheckedAt,
  testId = "vetting",
}: {
  identityVerifiedAt?: string | null;
  backgroundCheckedAt?: string | null;
  testId?: string;
}) {
  return (
    <ul className="vetting" aria-label={t`What Kindly checked`} data-testid={testId}>
      {vettingLines({ identityVerifiedAt, backgroundCheckedAt }).map((line) => (
        <li
          key={line.key}
          className={line.done ? "vetting-done" : "vetting-missing"}
          data-testid={`${testId}-${line.key}`}
        >
          <span aria-hidden="true">{line.done ? "✓" : "–"}</span> {line.text}
        </li>
      ))}
    </ul>
  );
}
