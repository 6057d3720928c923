// One service request on the dashboard: a client's own, or one open to a helper (Accept or Decline
// when it was asked of her; "Not for me" when it was offered to her).
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { AskedForYou, directState, SentToHelper } from "../../components/DirectRequest";
import { requestStatusNote, StatusBadge } from "../../components/StatusBadge";
import { formatDate, formatMoney, formatVisit, milesAway, urgencyLabel } from "../../lib/format";
import { requestRepeatSummary } from "../../lib/series";
import type { ServiceRequest } from "../../lib/types";
import { ForWhom } from "./Recipients";
import type { View } from "./common";

export interface RequestActions {
  onAccept: (request: ServiceRequest) => void;
  onDecline: (request: ServiceRequest) => void;
  /** "Not for me" on a request offered to her (NotForMeDialog). */
  onPass: (request: ServiceRequest) => void;
  busy: number | null;
}

export function RequestItem({
  request,
  role,
  actions,
}: {
  request: ServiceRequest;
  role: View;
  actions: RequestActions;
}) {
  const titleId = `request-${request.id}-title`;
  const budget = request.maxBudget !== null ? formatMoney(request.maxBudget) : "";
  // Sent to this provider directly and still theirs alone: Accept or Decline here.
  const direct = directState(request);
  const preferred = formatDate(request.preferredDate);
  const askedNow = role === "provider" && request.askedYou && (direct === "waiting" || direct === "only");
  // Offered to her (her offer carries its distance): she may pass on it, next to Accept on its page.
  const offered = role === "provider" && !askedNow && request.distanceMiles != null;
  return (
    <li className="list-item" data-testid="request-item" aria-labelledby={titleId}>
      <div className="list-item-head">
        <h3 id={titleId} className="list-item-title">
          {request.title}
        </h3>
        {role === "provider" ? (
          <StatusBadge status={request.urgency} label={urgencyText(request.urgency)} />
        ) : (
          <StatusBadge status={request.status} note={requestStatusNote(request.status, "client")} />
        )}
      </div>
      {role === "client" && <ForWhom recipient={request.recipient} />}
      {role === "provider" ? <AskedForYou request={request} /> : <SentToHelper request={request} />}
      <p className="list-item-text">{request.description}</p>
      {role === "provider" && <RequestWhenWhere request={request} />}
      <p className="list-item-meta">
        {role === "client" && request.preferredDate && (
          <span>
            <Trans>Preferred date: {preferred}</Trans>
          </span>
        )}
        {request.repeat && <span data-testid="request-repeat">{requestRepeatSummary(request)}</span>}
        <span>{budget ? <Trans>Budget: {budget}</Trans> : <Trans>Budget: Not specified</Trans>}</span>
      </p>
      <div className="actions">
        <a
          className="button button-secondary"
          href={`/service-request-details?id=${request.id}`}
          aria-describedby={titleId}
        >
          <Trans>View Details</Trans>
        </a>
        {askedNow && (
          <>
            <button
              type="button"
              className="button button-primary"
              onClick={() => actions.onAccept(request)}
              disabled={actions.busy === request.id}
              aria-describedby={titleId}
            >
              {actions.busy === request.id ? t`Accepting...` : t`Accept`}
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => actions.onDecline(request)}
              aria-describedby={titleId}
            >
              <Trans>Decline</Trans>
            </button>
          </>
        )}
        {offered && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => actions.onPass(request)}
            aria-describedby={titleId}
            data-testid="not-for-me"
          >
            <Trans>Not for Me</Trans>
          </button>
        )}
        {role === "client" && request.circleRole === "organizer" && request.status === "open" && (
          <a
            className="button button-secondary"
            href={`/edit-service-request?id=${request.id}`}
            aria-describedby={titleId}
          >
            <Trans>Edit</Trans>
          </a>
        )}
      </div>
    </li>
  );
}

/** "Urgent urgency" reads badly in any language: the urgency's name, then the word. */
function urgencyText(urgency: string): string {
  const name = urgencyLabel(urgency);
  return t`${name} urgency`;
}

/** Where a helper considering an open request needs to judge it without opening it: its date, time
 * window, town and, for a request offered to her, how far it is from her home. Helpers are sent the town and ZIP only before a booking (a `town` field when the
 * API has one, else `location` as the API words it for her), never the street line. */
function RequestWhenWhere({ request }: { request: ServiceRequest }) {
  const town = (request as { town?: string | null }).town ?? request.location;
  return (
    <dl className="request-facts" data-testid="request-when-where">
      <div>
        <dt>
          <Trans>When</Trans>
        </dt>
        <dd>{formatVisit(request.preferredDate, request.preferredTime) || t`Date to be agreed`}</dd>
      </div>
      {town && (
        <div>
          <dt>
            <Trans>Where</Trans>
          </dt>
          <dd>{town}</dd>
        </div>
      )}
      {request.distanceMiles !== null && request.distanceMiles !== undefined && (
        <div>
          <dt>
            <Trans>Distance</Trans>
          </dt>
          <dd data-testid="request-distance">{milesAway(request.distanceMiles)}</dd>
        </div>
      )}
    </dl>
  );
}
