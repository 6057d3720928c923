// One booking (or one visit of a series) on the dashboard: when, who, the visit's progress, and what
// the viewer may do (pay, cancel, review, tip, book again; a helper's check-in and check-out).
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { BookingPerson, CANCELLATION_POLICY, SUPPORT_LINK } from "../../components/BookingPerson";
import { BookAgainLink } from "../../components/DirectRequest";
import { bookingStatusNote, StatusBadge } from "../../components/StatusBadge";
import { ProviderVisitActions, reviewReady, VisitProgress } from "../../components/VisitControls";
import { formatMoney, formatVisit } from "../../lib/format";
import type { Booking } from "../../lib/types";
import { ForWhom } from "./Recipients";
import { ReplacementNote } from "./Replacement";
import { tipWindowOpen } from "./TipDialog";
import { bookingTitle, CANCEL_BLOCKED, type View } from "./common";

export interface BookingActions {
  onCancel: (b: Booking) => void;
  /** "Cancel the rest of the series" from this visit on. */
  onCancelRest: (b: Booking) => void;
  onReview: (b: Booking) => void;
  /** The helper's "I can't make this visit": it is offered to other helpers at once. */
  onProviderCancel: (b: Booking) => void;
  /** "Add a tip" for 72 hours after the check-out (the organizers'). */
  onTip?: (b: Booking) => void;
  /** After a check-in, check-out or report: the dashboard's data again. */
  onChanged: () => void;
  reviewed: Set<number>;
}

/** Whether the visit is being charged to a saved card automatically (payments.cards): no "Pay now". */
export function autoCharged(booking: Booking): boolean {
  const state = booking.autoCharge?.state;
  return state === "pending" || state === "submitted";
}

/** Whether the viewer pays this visit here. Mirrors the server (payments.services.check_booking_payable):
 * scheduled and not yet paid, including a payment that failed and may be tried again, and not being
 * charged to a saved card automatically; paying is the organizers'. */
export function payableBy(booking: Booking, role: View): boolean {
  return (
    role === "client" &&
    booking.circleRole === "organizer" &&
    booking.status === "scheduled" &&
    (booking.paymentStatus === "pending" || booking.paymentStatus === "failed") &&
    !autoCharged(booking)
  );
}

export function BookingItem({
  booking,
  role,
  actions,
  payNote = false,
}: {
  booking: Booking;
  role: View;
  actions: BookingActions;
  /** Say that each visit of the series is paid separately (once per series: its first visit to pay). */
  payNote?: boolean;
}) {
  const titleId = `booking-${booking.id}-title`;
  // What a cancel by support would cost now (the cancellation policy's late fee) and give back.
  const fee = formatMoney(booking.lateFee);
  const back = formatMoney(booking.lateCancelRefund);
  const series = booking.series;
  const visitIndex = series?.index ?? 0;
  const visitCount = series?.count ?? 0;
  const active = booking.status === "scheduled" || booking.status === "confirmed";
  // Paying, cancelling and reviewing are the organizers' (canManage); a circle's member sees the visit.
  const manages = role === "client" && booking.circleRole === "organizer";
  const payable = payableBy(booking, role);
  // The review is offered once the helper's visit report is in, shown beside it.
  const reviewDue = manages && booking.status === "completed" && !actions.reviewed.has(booking.id);
  const reviewable = reviewDue && reviewReady(booking);
  return (
    <li className="list-item" data-testid="booking-item" aria-labelledby={titleId}>
      <div className="list-item-head">
        {series ? (
          <h4 id={titleId} className="list-item-title">
            <Trans>
              Visit {visitIndex} of {visitCount}
            </Trans>
            <span className="visually-hidden">: {bookingTitle(booking)}</span>
          </h4>
        ) : (
          <h3 id={titleId} className="list-item-title">
            {bookingTitle(booking)}
          </h3>
        )}
        <StatusBadge
          status={booking.status}
          note={
            // A visit being charged to a saved card does not wait for anyone to pay: say so instead.
            role === "client" && autoCharged(booking) && booking.autoCharge
              ? booking.autoCharge.note
              : bookingStatusNote(booking, role === "client" && !manages ? "member" : role)
          }
        />
      </div>
      <p className="list-item-meta">
        <span>{formatVisit(booking.scheduledDate, booking.scheduledTime, booking.recipient?.timeZone)}</span>
        <span className="amount">{formatMoney(booking.totalAmount)}</span>
      </p>
      {/* The family's replacement note names the new helper's time; the arrival line would repeat it. */}
      {booking.arrivalNote && !(role === "client" && booking.replacement) && (
        <p className="list-item-meta" data-testid="booking-arrival">
          {booking.arrivalNote}
        </p>
      )}
      {role === "client" && <ReplacementNote booking={booking} onChanged={actions.onChanged} />}
      {role === "client" && !series && <ForWhom recipient={booking.recipient} />}
      {!series && <BookingPerson booking={booking} perspective={role} />}
      {role === "client" && <VisitProgress booking={booking} />}
      {role === "provider" && <ProviderVisitActions booking={booking} onChanged={actions.onChanged} />}
      {role === "client" && booking.autoCharge && !autoCharged(booking) && (
        <p className="list-item-meta" data-testid="auto-charge-note">
          {booking.autoCharge.note}
        </p>
      )}
      {role === "client" && booking.lateFeeCharged && (
        // The cancellation policy's late fee, the organizers' money news (the server sends it to them only).
        <p className="list-item-meta late-fee-charged" data-testid="late-fee-charged">
          <span>{booking.lateFeeCharged.text}</span>
          {booking.lateFeeCharged.disputeUrl && (
            <a href={booking.lateFeeCharged.disputeUrl} aria-describedby={titleId} data-testid="late-fee-dispute-link">
              <Trans>Dispute this fee</Trans>
            </a>
          )}
        </p>
      )}
      {payable && series && payNote && !booking.autoCharge && (
        <p className="list-item-meta" data-testid="series-pay-note">
          {series.payNote}
        </p>
      )}
      <div className="actions">
        {payable && (
          <a className="button button-primary" href={`/checkout/${booking.id}`} aria-describedby={titleId}>
            <Trans>Pay now</Trans>
          </a>
        )}
        {manages &&
          active &&
          (booking.canCancel ? (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => actions.onCancel(booking)}
              aria-describedby={titleId}
            >
              {series ? t`Cancel this visit` : t`Cancel Booking`}
            </button>
          ) : (
            <>
              <p className="notice notice-inline" data-testid="cancel-blocked">
                {CANCEL_BLOCKED}
              </p>
              {Number(booking.lateFee) > 0 && (
                <p data-testid="late-fee-if-cancelled">
                  <Trans>
                    Kindly support can still cancel it for you: the helper is then paid a late cancellation fee of {fee}
                    , and {back} comes back to your card.
                  </Trans>{" "}
                  <a href={CANCELLATION_POLICY}>
                    <Trans>Our cancellation policy</Trans>
                  </a>
                </p>
              )}
              <a
                className="button button-secondary"
                href={SUPPORT_LINK}
                aria-describedby={titleId}
                data-testid="contact-support"
              >
                <Trans>Contact support</Trans>
              </a>
            </>
          ))}
        {manages && active && series && booking.canCancel && series.index < series.count && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => actions.onCancelRest(booking)}
            aria-describedby={titleId}
            data-testid="cancel-rest"
          >
            <Trans>Cancel the rest of the series</Trans>
          </button>
        )}
        {role === "provider" && active && !booking.checkedInAt && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => actions.onProviderCancel(booking)}
            aria-describedby={titleId}
            data-testid="provider-cancel"
          >
            <Trans>I can&apos;t make this visit</Trans>
          </button>
        )}
        {reviewable && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => actions.onReview(booking)}
            aria-describedby={titleId}
          >
            <Trans>Leave a Review</Trans>
          </button>
        )}
        {reviewDue && !reviewable && (
          <p className="muted" data-testid="review-after-report">
            <Trans>You can leave a review once the helper's visit report is in.</Trans>
          </p>
        )}
        {manages && actions.onTip && tipWindowOpen(booking) && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => actions.onTip?.(booking)}
            aria-describedby={titleId}
            data-testid="add-tip"
          >
            <Trans>Add a tip</Trans>
          </button>
        )}
        {manages && booking.status === "completed" && actions.reviewed.has(booking.id) && (
          <p className="muted">
            <Trans>Thank you for your review.</Trans>
          </p>
        )}
        {manages && (booking.paymentStatus === "paid" || booking.paymentStatus === "refunded") && (
          <a
            className="button button-secondary"
            href={`/api/bookings/${booking.id}/receipt.pdf`}
            download
            aria-describedby={titleId}
            data-testid="receipt-download"
          >
            <Trans>Download the receipt (PDF)</Trans>
          </a>
        )}
        {manages && <BookAgainLink booking={booking} describedBy={titleId} />}
        {/* The booking's own page: the call/text card, "Confirmed by phone", the care details. */}
        <a
          className="button button-secondary"
          href={`/service-request-details?id=${booking.serviceRequestId}`}
          aria-describedby={titleId}
          data-testid="booking-details"
        >
          <Trans>View Details</Trans>
        </a>
      </div>
    </li>
  );
}
