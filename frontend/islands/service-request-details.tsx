// /service-request-details?id= (spec section 2 "Service request detail page"): the request, and for a
// user with a provider profile a Provider Actions card with Accept Request (open requests) or
// Contact Client (any other status). Once booked, its client sees the helper who is coming
// and inside the 48-hour window a way to reach support. The request and its booking
// are TanStack queries (lib/query), which also handles a lost session.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { DeclineRequestDialog } from "../components/DeclineRequestDialog";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { isUnauthorizedError } from "../lib/api";
import {
  formatDate,
  formatDateTime,
  formatMoney,
  formatVisit,
  personName,
  windowLabel,
  urgencyLabel,
} from "../lib/format";
import { apiQuery, mountQueryIsland } from "../lib/query";
import { toast } from "../lib/toast";
import type { Booking, ServiceRequest, Viewer } from "../lib/types";
import { BookingPerson, SUPPORT_LINK } from "../components/BookingPerson";
import { AskedForYou, BookAgainLink, SentToHelper, directState } from "../components/DirectRequest";
import { StatusBadge, bookingStatusNote, requestStatusNote } from "../components/StatusBadge";
import { LoadingText } from "../components/Skeleton";
import { PhoneLine } from "../components/PhoneLine";
import { RULES } from "../lib/rules.generated";
import { repeatLabel, seriesSummary } from "../lib/series";
import { useAcceptRequest } from "../lib/useAcceptRequest";

interface Props {
  requestId: string | null;
  viewer: Viewer;
}

function BackToDashboard() {
  return (
    <a className="button button-secondary" href="/">
      <span aria-hidden="true">←</span> {t`Back to Dashboard`}
    </a>
  );
}

function Message({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="card page-message">
      <h1>{title}</h1>
      {children}
      <div className="actions">
        <BackToDashboard />
      </div>
    </div>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="detail">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The person the booked provider visits: where, what helps, and whom in their care circle to ask
 * for (through Kindly's messages; by phone through the booking's Kindly line, never a number). */
function CareDetails({ details }: { details: NonNullable<ServiceRequest["careDetails"]> }) {
  const name = `${details.firstName} ${details.lastName}`.trim();
  return (
    <section className="card" aria-labelledby="care-details-heading" data-testid="care-details">
      <h2 id="care-details-heading">{t`About ${name}`}</h2>
      <dl className="details">
        {details.address && <Detail term={t`Address`}>{details.address}</Detail>}
        {details.notesForHelpers && <Detail term={t`Notes for helpers`}>{details.notesForHelpers}</Detail>}
      </dl>
      {details.contacts.length > 0 && (
        <>
          <h3 className="h3">{t`Who to contact in the family`}</h3>
          <ul>
            {details.contacts.map((c, i) => (
              <li key={i}>{`${c.firstName} ${c.lastName}`.trim()}</li>
            ))}
          </ul>
          <p className="muted">{t`Reach them through your messages in Kindly.`}</p>
        </>
      )}
    </section>
  );
}

/** Why a provider account may find nothing here: open requests are for verified providers only. */
function UnvettedHint({ viewer }: { viewer: Viewer }) {
  if (viewer.userType !== "provider" || viewer.provider?.verificationStatus === "verified") return null;
  if (viewer.provider?.verificationStatus === "pending") {
    return (
      <p data-testid="unvetted-hint">
        {t`Open requests are shown to verified providers only. Your application is being reviewed; once you are verified you will see open requests on your dashboard.`}
      </p>
    );
  }
  if (viewer.provider) {
    return <p data-testid="unvetted-hint">{t`Open requests are shown to verified providers only.`}</p>;
  }
  return (
    <p data-testid="unvetted-hint">
      <Trans>
        Open requests are shown to verified providers only. <a href="/provider-signup">Apply to become a provider</a>.
      </Trans>
    </p>
  );
}

/** The booking of a booked request, for its client: who is coming, what the status means, and
 * support inside the 48-hour window. */
function BookingPanel({ booking }: { booking: Booking }) {
  const active = booking.status === "scheduled" || booking.status === "confirmed";
  return (
    <section className="card" aria-labelledby="booking-heading" data-testid="request-booking">
      <div className="card-head">
        <h2 id="booking-heading">{booking.circleRole === "organizer" ? t`Your booking` : t`The booking`}</h2>
        <StatusBadge
          status={booking.status}
          note={bookingStatusNote(booking, booking.circleRole === "organizer" ? "client" : "member")}
        />
      </div>
      <p className="list-item-meta">
        <span>{formatVisit(booking.scheduledDate, booking.scheduledTime, booking.recipient?.timeZone)}</span>
        <span className="amount">{formatMoney(booking.totalAmount)}</span>
      </p>
      {booking.arrivalNote && (
        <p className="list-item-meta" data-testid="booking-arrival">
          {booking.arrivalNote}
        </p>
      )}
      <BookingPerson booking={booking} perspective="client" />
      <PhoneLine bookingId={booking.id} />
      {booking.status === "completed" && booking.circleRole === "organizer" && (
        <div className="actions">
          <BookAgainLink booking={booking} describedBy="booking-heading" />
        </div>
      )}
      {active && booking.circleRole === "organizer" && !booking.canCancel && (
        <div className="actions">
          <p className="notice notice-inline" data-testid="cancel-blocked">
            {RULES.cancellation.CANCEL_WINDOW_MESSAGE}
          </p>
          <a className="button button-secondary" href={SUPPORT_LINK} data-testid="contact-support">
            {t`Contact support`}
          </a>
        </div>
      )}
    </section>
  );
}

function RequestDetails({ requestId, viewer }: Props) {
  const [declining, setDeclining] = useState<ServiceRequest | null>(null);
  const client = useQueryClient();

  const valid = !!requestId && /^\d+$/.test(requestId);
  const requestKey = [`/api/service-requests/${requestId}`];
  const { data: loaded, error } = useQuery({
    ...apiQuery<ServiceRequest>(`/api/service-requests/${requestId}`),
    enabled: valid,
  });
  // Everyone in the recipient's care circle sees who is coming once it is booked (after a
  // reassignment, the new helper).
  const booked = loaded?.status === "booked" || loaded?.status === "completed";
  const bookingId = loaded?.circleRole && booked ? loaded.bookingId : null;
  const { data: shownBooking, isError: bookingFailed } = useQuery({
    ...apiQuery<Booking>(`/api/bookings/${bookingId}`),
    enabled: !!bookingId,
  });
  // A booking that cannot be read: the request still shows; the dashboard lists the booking too.
  const booking = bookingId && !bookingFailed ? (shownBooking ?? null) : null;
  const refetchRequest = () => client.invalidateQueries({ queryKey: requestKey });
  // Accepted, or taken meanwhile (409): the request is read again. A series' dates she cannot
  // make come back as `unavailable`: she may accept the rest without them.
  const {
    accept,
    accepting: acceptingId,
    error: acceptError,
    unavailable,
  } = useAcceptRequest({
    onSettled: (outcome) => (outcome.accepted || outcome.status === 409 ? refetchRequest() : undefined),
  });
  const accepting = acceptingId !== null;
  // The arrival time she picked ("" : the first choice, the window's start).
  const [arrival, setArrival] = useState("");
  const arrivalFor = (shown: { arrivalChoices: { value: string }[] }) =>
    arrival || (shown.arrivalChoices[0]?.value ?? "");

  if (!requestId) {
    return (
      <Message title={t`No Request ID`}>
        <p>{t`No service request was specified. Open a request from your dashboard.`}</p>
      </Message>
    );
  }
  if (loaded === undefined) {
    // A lost session keeps "Loading" while lib/query says so and signs in again.
    if (valid && (!error || isUnauthorizedError(error))) return <LoadingText>{t`Loading request…`}</LoadingText>;
    return (
      <Message title={t`Request Not Found`}>
        <p>{t`This service request could not be loaded. It may have been removed.`}</p>
        <UnvettedHint viewer={viewer} />
      </Message>
    );
  }
  const request = loaded;

  const isOpen = request.status === "open";
  // In the recipient's care circle: organizers may edit; every member sees the booking.
  const isOwner = request.circleRole !== null && request.circleRole !== undefined;
  const organizes = request.circleRole === "organizer";
  const perspective = isOwner ? "client" : viewer.userType === "admin" ? "admin" : "provider";
  const recipientName = request.recipient ? `${request.recipient.firstName} ${request.recipient.lastName}`.trim() : "";
  // Sent to this provider directly and still theirs alone: they may also decline it.
  const direct = directState(request);
  const mayDecline = request.askedYou && isOpen && (direct === "waiting" || direct === "only");
  const urgency = urgencyLabel(request.urgency);
  const preferredDate = formatDate(request.preferredDate);
  const preferredTime = windowLabel(request.preferredTime, request.preferredDate, request.recipient?.timeZone);
  const streetHidden = request.address?.street === null;
  const minutes = request.estimatedDuration;
  const repeat = repeatLabel(request.repeat);
  const dates = seriesSummary(request.visitDates ?? []);
  const unavailableCount = unavailable.length;
  const declineReason = request.declineReason ?? "";

  return (
    <div className="details-layout">
      <div className="details-main">
        <p>
          <BackToDashboard />
        </p>
        <article className="card" aria-labelledby="request-title">
          <div className="card-head">
            <h1 id="request-title">{request.title}</h1>
            <div className="badges">
              <StatusBadge status={request.status} note={requestStatusNote(request.status, perspective)} />
              <StatusBadge status={request.urgency} label={t`${urgency} urgency`} />
            </div>
          </div>
          {request.serviceCategory && <p className="muted">{request.serviceCategory.name}</p>}
          <AskedForYou request={request} />
          <SentToHelper request={request} />
          <h2 className="visually-hidden">{t`Description`}</h2>
          <p className="prewrap">{request.description}</p>
          <dl className="details">
            {recipientName && <Detail term={t`For`}>{recipientName}</Detail>}
            <Detail term={t`Preferred date`}>{preferredDate || t`Flexible`}</Detail>
            <Detail term={t`Preferred time`}>{preferredTime || t`Flexible`}</Detail>
            {request.repeat && (
              <Detail term={t`Repeats`}>
                <span data-testid="request-repeat">{t`${repeat}: ${dates}`}</span>
              </Detail>
            )}
            {request.location && (
              <Detail term={streetHidden ? t`Town and ZIP` : t`Location`}>
                {request.location}
                {streetHidden && (
                  // The street line goes to the booked helper only (address_shown_to on the server).
                  <span className="field-hint">{t` The street address is shared with the helper who is booked.`}</span>
                )}
              </Detail>
            )}
            <Detail term={t`Estimated duration`}>{minutes ? t`${minutes} minutes` : t`Not specified`}</Detail>
            <Detail term={t`Budget`}>{request.maxBudget ? formatMoney(request.maxBudget) : t`Not specified`}</Detail>
            {request.client && <Detail term={t`Client`}>{personName(request.client)}</Detail>}
            <Detail term={t`Posted`}>{formatDateTime(request.createdAt)}</Detail>
          </dl>
          {request.tasks && request.tasks.length > 0 && (
            <>
              <h2 className="h3">{t`What the visit is for`}</h2>
              <ol className="task-list" data-testid="request-tasks">
                {request.tasks.map((task) => (
                  <li key={task}>{task}</li>
                ))}
              </ol>
            </>
          )}
          {request.specialRequirements && (
            <>
              <h2 className="h3">{t`Special requirements`}</h2>
              <p className="prewrap">{request.specialRequirements}</p>
            </>
          )}
          {organizes && isOpen && (
            <div className="actions">
              <a className="button button-secondary" href={`/edit-service-request?id=${request.id}`}>
                {t`Edit Request`}
              </a>
            </div>
          )}
        </article>
        {isOwner && booking && <BookingPanel booking={booking} />}
        {request.careDetails && <CareDetails details={request.careDetails} />}
        {/* The booked helper: the call/text card (it says when the line opens) and "Confirmed by phone". */}
        {!isOwner && request.bookingId && <PhoneLine bookingId={request.bookingId} />}
      </div>

      {viewer.provider && !isOwner && (
        <aside className="details-side">
          <section className="card" aria-labelledby="provider-actions-heading" data-testid="provider-actions">
            <h2 id="provider-actions-heading">{t`Provider Actions`}</h2>
            {isOpen ? (
              <>
                <p>{t`Accept this request to book the visit. You can then message the client.`}</p>
                {request.arrivalChoices.length > 0 && (
                  <div className="field">
                    <label htmlFor="arrival-time">{t`When will you arrive?`}</label>
                    <select
                      id="arrival-time"
                      data-testid="arrival-time"
                      value={arrivalFor(request)}
                      onChange={(event) => setArrival(event.currentTarget.value)}
                      aria-describedby="arrival-time-hint"
                    >
                      {request.arrivalChoices.map((choice) => (
                        <option key={choice.value} value={choice.value}>
                          {choice.label}
                        </option>
                      ))}
                    </select>
                    <p id="arrival-time-hint" className="field-hint">
                      {t`The family is told this time. Choose one that leaves the whole visit inside their window.`}
                    </p>
                  </div>
                )}
                <div className="actions">
                  <button
                    type="button"
                    className="button button-primary"
                    onClick={() => void accept(request.id, { arrivalTime: arrivalFor(request) })}
                    disabled={accepting}
                  >
                    {accepting ? t`Accepting...` : t`Accept Request`}
                  </button>
                  {unavailable.length > 0 && (
                    <button
                      type="button"
                      className="button button-secondary"
                      data-testid="accept-without-dates"
                      onClick={() =>
                        void accept(request.id, { skipUnavailable: true, arrivalTime: arrivalFor(request) })
                      }
                      disabled={accepting}
                    >
                      {plural(unavailableCount, {
                        one: "Accept without that date",
                        other: "Accept without those # dates",
                      })}
                    </button>
                  )}
                  {mayDecline && (
                    <button type="button" className="button button-secondary" onClick={() => setDeclining(request)}>
                      {t`Decline`}
                    </button>
                  )}
                </div>
              </>
            ) : (
              <>
                <p data-testid="request-closed">
                  {request.bookedWithYou
                    ? t`You accepted this request. The visit is on your dashboard.`
                    : t`This request is no longer open.`}
                </p>
                <a
                  className="button button-primary"
                  href={request.clientId ? `/messages?with=${encodeURIComponent(request.clientId)}` : "/messages"}
                >
                  {t`Contact Client`}
                </a>
              </>
            )}
            {request.askedYou && request.declinedAt && (
              <p className="muted" data-testid="you-declined">
                {t`You declined this request: ${declineReason}`}
              </p>
            )}
            <p className="field-error" role="alert" data-testid="accept-error">
              {acceptError}
            </p>
          </section>
        </aside>
      )}
      <DeclineRequestDialog
        request={declining}
        onClose={() => setDeclining(null)}
        onDeclined={(updated) => {
          client.setQueryData(requestKey, updated);
          const clientName = updated.client?.firstName;
          toast({
            title: t`Request declined`,
            description: clientName ? t`We told ${clientName} why.` : t`We told the client why.`,
          });
        }}
      />
    </div>
  );
}

mountQueryIsland(RequestDetails, "service-request-details");
