// How a helper answers and keeps her word, on her card (/providers) and her profile page, from the
// server's track record (providers.ports.track_records): "Usually answers in 14 min" and
// "Completed 24 of the last 25 visits"; "New helper" while she has had too few visits to judge
// (unless her rating already says so).
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { components } from "../lib/api-schema";

type Completion = components["schemas"]["Completion"];

/** "Usually answers in 14 min" (her median over her last offers); "in 2 hours" from two hours. */
export function answerSpeedText(minutes: number): string {
  if (minutes < 120) return t`Usually answers in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  return t`Usually answers in ${hours} hours`;
}

/** "Completed 24 of the last 25 visits": of her last visits that are over, those she completed. */
export function completionText(completion: Completion): string {
  const { completed, visits } = completion;
  return plural(visits, {
    one: `Completed ${completed} of the last # visit`,
    other: `Completed ${completed} of the last # visits`,
  });
}

export function TrackRecord({
  answerMinutes,
  completion,
  newHelperShown,
}: {
  answerMinutes: number | null;
  completion: Completion | null;
  /** Her rating already reads "New helper" (no reviews yet): not said twice. */
  newHelperShown: boolean;
}) {
  return (
    <>
      {answerMinutes != null && (
        <p className="provider-answers" data-testid="answer-speed">
          {answerSpeedText(answerMinutes)}
        </p>
      )}
      {completion ? (
        <p className="provider-completion" data-testid="completion">
          {completionText(completion)}
        </p>
      ) : (
        !newHelperShown && (
          <p className="provider-completion" data-testid="completion">
            <span className="badge badge-info new-helper">
              <Trans>New helper</Trans>
            </span>
          </p>
        )
      )}
    </>
  );
}
