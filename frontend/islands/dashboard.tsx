// Dashboard (/ signed in, /dashboard): tiles, bookings, requests, the client's cancel and
// review dialogs (offered once the visit report is in), the provider's Check in / Check out with the
// visit report (the spec's "Mark as Completed" became the check-out, issue 17), and the family's
// "Checked in at 9:04" / "Visit report ready" as they happen (spec section 2 "Dashboard").
// Its data is a TanStack query (lib/query) seeded by the page's props, so the first paint asks the
// API for nothing; booking events re-read it, and the unread count is polled only while the socket is down.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { CancelBookingDialog } from "../components/CancelBookingDialog";
import { Dialog, DialogClose } from "../components/Dialog";
import { EmptyState } from "../components/EmptyState";
import { FieldSet, RadioOption, TextareaField } from "../components/Field";
import { BookingPerson, SUPPORT_LINK } from "../components/BookingPerson";
import {
  AskedForYou,
  BookAgainLink,
  DeclineRequestDialog,
  SentToHelper,
  directState,
} from "../components/DirectRequest";
import { StatusBadge, bookingStatusNote, requestStatusNote } from "../components/StatusBadge";
import { UnreadBadge } from "../components/UnreadBadge";
import { ApiError, api, errorMessage, isUnauthorizedError } from "../lib/api";
import { useSchemaForm } from "../lib/forms";
import {
  clientCancelSchema,
  reviewPayload,
  reviewSchema,
  TEXT_MAX,
  type CancelReasonValues,
  type ReviewValues,
} from "../lib/schemas/booking";
import { formatDate, formatMoney, formatVisit, plural, urgencyLabel } from "../lib/format";
import { mountQueryIsland, useApiWrite, usePollWhileDisconnected, type SessionMeta } from "../lib/query";
import { useConnected, useRealtimeEvent } from "../lib/realtime";
import { ProviderVisitActions, ReportDetails, VisitProgress, reviewReady } from "../components/VisitControls";
import { toast } from "../lib/toast";
import { repeatLabel, requestRepeatSummary, shortDay } from "../lib/series";
import { useAcceptRequest } from "../lib/useAcceptRequest";
import type { Booking, ServiceRequest, UnreadCount, UserType } from "../lib/types";

interface Props {
  user: { id: string; firstName: string; userType: UserType };
  /** The side shown (marketplace.dashboard: ?view=, by default the account's type). */
  role: View;
  hasProviderProfile: boolean;
  /** marketplace.dashboard: only "verified" is shown open requests. */
  providerStatus: ProviderStatus;
  reviewedBookingIds: number[];
  /** The first data, rendered with the page (marketplace.dashboard.DashboardSerializer): no API call before the first paint. */
  initial: DashboardData;
}

/** GET /api/dashboard (and props.initial): the first 3 bookings and requests, a provider's tile counts, unread count. */
interface DashboardData {
  /** The side shown, and the sides the viewer has (someone who is both a client and a helper keeps both). */
  view: View;
  views: View[];
  /** In the helper view, what the viewer has as a client (null: nothing). */
  clientSide: { requests: number; bookings: number; unpaid: number } | null;
  bookings: Booking[];
  requests: ServiceRequest[];
  /** today: her visits of today still to make (site time zone); completed: all she completed. */
  tiles: { today: number; completed: number } | null;
  unread: number;
  /** The people in whose care circles the viewer is (the switcher shows when there are two or more). */
  recipients: Recipient[];
  /** The one the lists are narrowed to (?recipient=), null for everyone. */
  recipientId: number | null;
}

interface Recipient {
  id: number;
  firstName: string;
  lastName: string;
}

function fullName(r: Recipient | null | undefined): string {
  return r ? `${r.firstName} ${r.lastName}`.trim() : "";
}

/** "For Harold Smith": whom a booking or a request is for (a client's lists only). */
function ForWhom({ recipient }: { recipient: Recipient | null | undefined }) {
  const name = fullName(recipient);
  return name ? (
    <p className="list-item-for" data-testid="item-recipient">
      For {name}
    </p>
  ) : null;
}

/** All / each recipient: links (a full page load, so it works without scripts and the address can
 * be shared), the current one marked for assistive technology. */
function RecipientSwitcher({
  recipients,
  current,
  keepView,
}: {
  recipients: Recipient[];
  current: number | null;
  /** The client view of someone who is also a helper stays the client view. */
  keepView: boolean;
}) {
  const href = (id: number | null) => {
    const query = new URLSearchParams(keepView ? { view: "client" } : {});
    if (id !== null) query.set("recipient", String(id));
    const text = query.toString();
    return text ? `/dashboard?${text}` : "/dashboard";
  };
  if (recipients.length < 2) return null;
  const items: { id: number | null; label: string }[] = [
    { id: null, label: "Everyone" },
    ...recipients.map((r) => ({ id: r.id, label: fullName(r) })),
  ];
  return (
    <nav className="recipient-switcher" aria-label="Whose care to show" data-testid="recipient-switcher">
      <p className="recipient-switcher-label">Show the care of:</p>
      <ul className="recipient-switcher-list">
        {items.map((item) => (
          <li key={item.id ?? "all"}>
            <a
              className={`button ${item.id === current ? "button-primary" : "button-secondary"}`}
              href={href(item.id)}
              aria-current={item.id === current ? "page" : undefined}
            >
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

type ProviderStatus = "none" | "pending" | "verified" | "rejected" | "inactive";
type View = "provider" | "client";

/** "You also have 1 booking as a client (1 waiting for your payment)": the helper view of someone
 * who is also a client never hides her own requests and bookings. */
function ClientSideNotice({ side }: { side: DashboardData["clientSide"] }) {
  if (!side) return null;
  const parts: string[] = [];
  if (side.bookings) parts.push(plural(side.bookings, "booking", "bookings"));
  if (side.requests) parts.push(plural(side.requests, "open request", "open requests"));
  return (
    <section className="notice view-switch" aria-labelledby="client-side-heading" data-testid="client-side">
      <h2 id="client-side-heading" className="view-switch-title">
        You also have {parts.join(" and ")} as a client
      </h2>
      {side.unpaid > 0 && <p>{plural(side.unpaid, "booking is", "bookings are")} waiting for your payment.</p>}
      <a className="button button-primary" href="/dashboard?view=client">
        View your client bookings
      </a>
    </section>
  );
}

/** In the client view of someone who is also a helper: the way back to her helper view. */
function HelperViewLink({ views }: { views: View[] }) {
  if (!views.includes("provider")) return null;
  return (
    <p className="notice view-switch" data-testid="helper-view-link">
      You are seeing your bookings as a client.{" "}
      <a className="button button-secondary" href="/dashboard?view=provider">
        Back to your helper view
      </a>
    </p>
  );
}

const LIST_LIMIT = 3;
const UNREAD_POLL_MS = 10_000;
const CANCEL_BLOCKED = "This booking cannot be cancelled (less than 48 hours remaining).";
const UNREAD_COUNT = "/api/messages/unread-count";
/** A lost session signs in again through /api/login (spec section 8); the page's calls carry it. */
const SESSION: SessionMeta = { loginTarget: "/api/login" };

function bookingTitle(b: Booking): string {
  return b.serviceRequest?.title || "Service Appointment";
}

// ---------------------------------------------------------------- tiles

function Tiles({ role, tiles, unread }: { role: Props["role"]; tiles: DashboardData["tiles"]; unread: number }) {
  const count = (status: "today" | "completed") => (tiles?.[status] ?? 0).toLocaleString("en-US");
  return (
    <section aria-labelledby="overview-heading" className="dashboard-section">
      <h2 id="overview-heading" className="visually-hidden">
        Overview
      </h2>
      <ul className="tiles">
        {role === "provider" ? (
          <>
            <li className="tile" data-testid="tile-schedule">
              <span className="tile-label">Today's Schedule</span>
              <span className="tile-count">{count("today")}</span>
            </li>
            <li className="tile" data-testid="tile-completed">
              <span className="tile-label">Completed</span>
              <span className="tile-count">{count("completed")}</span>
            </li>
          </>
        ) : (
          <>
            <li className="tile">
              <a className="tile-link" href="/request-service">
                <span className="tile-label">Request Service</span>
                <span className="tile-text">Get help from a verified provider</span>
              </a>
            </li>
            <li className="tile">
              <a className="tile-link" href="/providers">
                <span className="tile-label">Browse Providers</span>
                <span className="tile-text">Find trusted helpers near you</span>
              </a>
            </li>
          </>
        )}
        <li className="tile">
          <a className="tile-link" href="/messages" data-testid="tile-messages">
            <span className="tile-label">
              Messages <UnreadBadge count={unread} />
            </span>
            <span className="tile-text">Talk with your {role === "provider" ? "clients" : "providers"}</span>
          </a>
        </li>
        <li className="tile">
          <span className="tile-label">Recent Activity</span>
          <span className="tile-text">Your latest updates</span>
        </li>
      </ul>
    </section>
  );
}

// ---------------------------------------------------------------- bookings

interface BookingActions {
  onCancel: (b: Booking) => void;
  /** "Cancel the rest of the series" from this visit on (issue 18). */
  onCancelRest: (b: Booking) => void;
  onReview: (b: Booking) => void;
  /** After a check-in, check-out or report: the dashboard's data again. */
  onChanged: () => void;
  reviewed: Set<number>;
}

/** Whether the viewer pays this visit here. Mirrors the server (payments.services.check_booking_payable):
 * scheduled and not yet paid, including a payment that failed and may be tried again; paying is the
 * organizers'. */
function payableBy(booking: Booking, role: Props["role"]): boolean {
  return (
    role === "client" &&
    booking.circleRole === "organizer" &&
    booking.status === "scheduled" &&
    (booking.paymentStatus === "pending" || booking.paymentStatus === "failed")
  );
}

function BookingItem({
  booking,
  role,
  actions,
  payNote = false,
}: {
  booking: Booking;
  role: Props["role"];
  actions: BookingActions;
  /** Say that each visit of the series is paid separately (once per series: its first visit to pay). */
  payNote?: boolean;
}) {
  const titleId = `booking-${booking.id}-title`;
  const series = booking.series;
  const active = booking.status === "scheduled" || booking.status === "confirmed";
  // Paying, cancelling and reviewing are the organizers' (canManage); a circle's member sees the visit.
  const manages = role === "client" && booking.circleRole === "organizer";
  const payable = payableBy(booking, role);
  // The review is offered once the helper's visit report is in (issue 17), shown beside it.
  const reviewDue = manages && booking.status === "completed" && !actions.reviewed.has(booking.id);
  const reviewable = reviewDue && reviewReady(booking);
  return (
    <li className="list-item" data-testid="booking-item" aria-labelledby={titleId}>
      <div className="list-item-head">
        {series ? (
          <h4 id={titleId} className="list-item-title">
            Visit {series.index} of {series.count}
            <span className="visually-hidden">: {bookingTitle(booking)}</span>
          </h4>
        ) : (
          <h3 id={titleId} className="list-item-title">
            {bookingTitle(booking)}
          </h3>
        )}
        <StatusBadge
          status={booking.status}
          note={bookingStatusNote(booking, role === "client" && !manages ? "member" : role)}
        />
      </div>
      <p className="list-item-meta">
        <span>{formatVisit(booking.scheduledDate, booking.scheduledTime, booking.recipient?.timeZone)}</span>
        <span className="amount">{formatMoney(booking.totalAmount)}</span>
      </p>
      {role === "client" && !series && <ForWhom recipient={booking.recipient} />}
      {!series && <BookingPerson booking={booking} perspective={role} />}
      {role === "client" && <VisitProgress booking={booking} />}
      {role === "provider" && <ProviderVisitActions booking={booking} onChanged={actions.onChanged} />}
      {payable && series && payNote && (
        <p className="list-item-meta" data-testid="series-pay-note">
          {series.payNote}
        </p>
      )}
      <div className="actions">
        {payable && (
          <a className="button button-primary" href={`/checkout/${booking.id}`} aria-describedby={titleId}>
            Pay now
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
              {series ? "Cancel this visit" : "Cancel Booking"}
            </button>
          ) : (
            <>
              <p className="notice notice-inline" data-testid="cancel-blocked">
                {CANCEL_BLOCKED}
              </p>
              <a
                className="button button-secondary"
                href={SUPPORT_LINK}
                aria-describedby={titleId}
                data-testid="contact-support"
              >
                Contact support
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
            Cancel the rest of the series
          </button>
        )}
        {reviewable && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => actions.onReview(booking)}
            aria-describedby={titleId}
          >
            Leave a Review
          </button>
        )}
        {reviewDue && !reviewable && (
          <p className="muted" data-testid="review-after-report">
            You can leave a review once the helper's visit report is in.
          </p>
        )}
        {manages && booking.status === "completed" && actions.reviewed.has(booking.id) && (
          <p className="muted">Thank you for your review.</p>
        )}
        {manages && <BookAgainLink booking={booking} describedBy={titleId} />}
      </div>
    </li>
  );
}

type BookingGroup = { key: string; visits: Booking[] };

/** One-off bookings alone, the visits of a series together (in the list's order: the first
 * visit's place). */
function groupBookings(bookings: Booking[]): BookingGroup[] {
  const groups: BookingGroup[] = [];
  const byRequest = new Map<number, BookingGroup>();
  for (const b of bookings) {
    if (!b.series) {
      groups.push({ key: `booking-${b.id}`, visits: [b] });
      continue;
    }
    let group = byRequest.get(b.series.requestId);
    if (!group) {
      group = { key: `series-${b.series.requestId}`, visits: [] };
      byRequest.set(b.series.requestId, group);
      groups.push(group);
    }
    group.visits.push(b);
  }
  for (const group of groups) group.visits.sort((a, b) => (a.series?.index ?? 0) - (b.series?.index ?? 0));
  return groups;
}

/** "Every week · 4 visits · next Tue Dec 8" */
function seriesLine(visits: Booking[]): string {
  const first = visits[0];
  if (!first?.series) return "";
  const next = visits.find((v) => v.status === "scheduled" || v.status === "confirmed");
  const parts = [repeatLabel(first.series.repeat), `${first.series.count} visits`];
  if (next) parts.push(`next ${shortDay(next.scheduledDate)}`);
  return parts.join(" · ");
}

function SeriesItem({ visits, role, actions }: { visits: Booking[]; role: Props["role"]; actions: BookingActions }) {
  const first = visits[0];
  if (!first?.series) return null;
  const titleId = `series-${first.series.requestId}-title`;
  // The next visit to pay says, once, that the series is paid one visit at a time.
  const firstToPay = visits.find((v) => payableBy(v, role));
  return (
    <li className="list-item series-item" data-testid="booking-series" aria-labelledby={titleId}>
      <div className="list-item-head">
        <h3 id={titleId} className="list-item-title">
          {bookingTitle(first)}
        </h3>
      </div>
      <p className="list-item-meta" data-testid="series-summary">
        {seriesLine(visits)}
      </p>
      {role === "client" && <ForWhom recipient={first.recipient} />}
      <BookingPerson booking={first} perspective={role} />
      <ul className="item-list series-visits" aria-label={`Visits of ${bookingTitle(first)}`}>
        {visits.map((b) => (
          <BookingItem key={b.id} booking={b} role={role} actions={actions} payNote={b.id === firstToPay?.id} />
        ))}
      </ul>
    </li>
  );
}

function BookingsCard({
  role,
  bookings,
  failed,
  actions,
}: {
  role: Props["role"];
  bookings: Booking[];
  failed: string;
  actions: BookingActions;
}) {
  const title = role === "provider" ? "Upcoming Appointments" : "Your Bookings";
  return (
    <section className="card dashboard-card" aria-labelledby="bookings-heading" data-testid="bookings-card">
      <h2 id="bookings-heading">{title}</h2>
      {failed ? (
        <p role="alert" className="field-error">
          We couldn't load your bookings: {failed}
        </p>
      ) : bookings.length === 0 ? (
        <EmptyState
          title="No bookings yet"
          action={
            role === "client" ? (
              <a className="button button-primary" href="/request-service">
                Request Your First Service
              </a>
            ) : undefined
          }
        />
      ) : (
        <ul className="item-list">
          {groupBookings(bookings)
            .slice(0, LIST_LIMIT)
            .map((group) =>
              group.visits[0]?.series ? (
                <SeriesItem key={group.key} visits={group.visits} role={role} actions={actions} />
              ) : (
                group.visits[0] && (
                  <BookingItem key={group.key} booking={group.visits[0]} role={role} actions={actions} />
                )
              ),
            )}
        </ul>
      )}
    </section>
  );
}

// ---------------------------------------------------------------- requests

interface RequestActions {
  onAccept: (request: ServiceRequest) => void;
  onDecline: (request: ServiceRequest) => void;
  busy: number | null;
}

function RequestItem({
  request,
  role,
  actions,
}: {
  request: ServiceRequest;
  role: Props["role"];
  actions: RequestActions;
}) {
  const titleId = `request-${request.id}-title`;
  const budget = request.maxBudget !== null ? formatMoney(request.maxBudget) : "";
  // Sent to this provider directly and still theirs alone (issue 18): Accept or Decline here.
  const direct = directState(request);
  const askedNow = role === "provider" && request.askedYou && (direct === "waiting" || direct === "only");
  return (
    <li className="list-item" data-testid="request-item" aria-labelledby={titleId}>
      <div className="list-item-head">
        <h3 id={titleId} className="list-item-title">
          {request.title}
        </h3>
        {role === "provider" ? (
          <StatusBadge status={request.urgency} label={`${urgencyLabel(request.urgency)} urgency`} />
        ) : (
          <StatusBadge status={request.status} note={requestStatusNote(request.status, "client")} />
        )}
      </div>
      {role === "client" && <ForWhom recipient={request.recipient} />}
      {role === "provider" ? <AskedForYou request={request} /> : <SentToHelper request={request} />}
      <p className="list-item-text">{request.description}</p>
      {role === "provider" && <RequestWhenWhere request={request} />}
      <p className="list-item-meta">
        {role === "client" && request.preferredDate && <span>Preferred date: {formatDate(request.preferredDate)}</span>}
        {request.repeat && <span data-testid="request-repeat">{requestRepeatSummary(request)}</span>}
        <span>Budget: {budget || "Not specified"}</span>
      </p>
      <div className="actions">
        <a
          className="button button-secondary"
          href={`/service-request-details?id=${request.id}`}
          aria-describedby={titleId}
        >
          View Details
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
              {actions.busy === request.id ? "Accepting..." : "Accept"}
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => actions.onDecline(request)}
              aria-describedby={titleId}
            >
              Decline
            </button>
          </>
        )}
        {role === "client" && request.circleRole === "organizer" && request.status === "open" && (
          <a
            className="button button-secondary"
            href={`/edit-service-request?id=${request.id}`}
            aria-describedby={titleId}
          >
            Edit
          </a>
        )}
      </div>
    </li>
  );
}

/** Where a helper considering an open request needs to judge it without opening it: its date, time
 * window and town. Helpers are sent the town and ZIP only before a booking (a `town` field when the
 * API has one, else `location` as the API words it for her), never the street line. */
function RequestWhenWhere({ request }: { request: ServiceRequest }) {
  const town = (request as { town?: string | null }).town ?? request.location;
  return (
    <dl className="request-facts" data-testid="request-when-where">
      <div>
        <dt>When</dt>
        <dd>{formatVisit(request.preferredDate, request.preferredTime) || "Date to be agreed"}</dd>
      </div>
      {town && (
        <div>
          <dt>Where</dt>
          <dd>{town}</dd>
        </div>
      )}
    </dl>
  );
}

/** In place of open requests for a provider account that is not verified (issue 12): open requests
 * (a senior's address, their needs) are shown to verified providers only. */
function ProviderGate({ status }: { status: Exclude<ProviderStatus, "verified"> }) {
  const content: Record<
    typeof status,
    { title: string; text: string; action: { href: string; label: string } | null }
  > = {
    none: {
      title: "Only verified providers see open requests",
      text:
        "To keep clients' homes and details safe, requests are shown to providers we have checked. " +
        "Apply to become a provider: we review applications in 2-3 business days.",
      action: { href: "/provider-signup", label: "Apply to become a provider" },
    },
    pending: {
      title: "Your application is being reviewed",
      text:
        "Thank you for applying. We review applications in 2-3 business days and will let you know. " +
        "Once you are verified, open requests from clients appear here.",
      action: null,
    },
    rejected: {
      title: "Your application was not approved",
      text:
        "Open requests are shown to verified providers only. If you would like to know more about the decision, " +
        "our support team is happy to help.",
      action: { href: SUPPORT_LINK, label: "Contact support" },
    },
    inactive: {
      title: "Your provider profile is not active",
      text: "Open requests are shown to active, verified providers. Our support team can help you turn your profile back on.",
      action: { href: SUPPORT_LINK, label: "Contact support" },
    },
  };
  const { title, text, action } = content[status];
  return (
    <div className="provider-gate" data-testid="provider-gate" data-status={status}>
      <h3>{title}</h3>
      <p>{text}</p>
      {action && (
        <div className="actions">
          <a className="button button-primary" href={action.href}>
            {action.label}
          </a>
        </div>
      )}
    </div>
  );
}

function RequestsCard({
  role,
  providerStatus,
  requests,
  failed,
  actions,
}: {
  role: Props["role"];
  providerStatus: ProviderStatus;
  requests: ServiceRequest[];
  failed: string;
  actions: RequestActions;
}) {
  const provider = role === "provider";
  return (
    <section className="card dashboard-card" aria-labelledby="requests-heading" data-testid="requests-card">
      <h2 id="requests-heading">{provider ? "Available Requests" : "Your Requests"}</h2>
      {provider && providerStatus !== "verified" ? (
        <ProviderGate status={providerStatus} />
      ) : failed ? (
        <p role="alert" className="field-error">
          We couldn't load requests: {failed}
        </p>
      ) : requests.length === 0 ? (
        provider ? (
          <EmptyState title="No new requests available" />
        ) : (
          <EmptyState
            title="No service requests yet"
            action={
              <a className="button button-primary" href="/request-service">
                Create Your First Request
              </a>
            }
          />
        )
      ) : (
        <ul className="item-list">
          {requests.slice(0, LIST_LIMIT).map((r) => (
            <RequestItem key={r.id} request={r} role={role} actions={actions} />
          ))}
        </ul>
      )}
    </section>
  );
}

// ---------------------------------------------------------------- dialogs

/** Client cancel (spec): at least 48 hours before the visit, a paid booking refunded. A failure
 * refreshes the dashboard too (the booking may have changed meanwhile). */
async function clientCancel(
  post: (path: string, body: unknown) => Promise<unknown>,
  booking: Booking,
  reason: string,
  onClose: () => void,
  onDone: () => void,
) {
  try {
    await post(`/api/bookings/${booking.id}/cancel`, { reason });
    toast({ title: "Booking Cancelled", description: "Your booking has been successfully cancelled." });
    onClose();
    onDone();
  } catch (error) {
    if (isUnauthorizedError(error)) return; // lib/query says so and signs in again
    const message = error instanceof ApiError ? error.serverMessage : "";
    toast({ title: "Cancellation Failed", description: message || "Failed to cancel booking", variant: "destructive" });
    onDone();
  }
}

function CancelDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { post } = useApiWrite([], SESSION);
  return (
    <CancelBookingDialog
      booking={booking}
      reasonLabel="Reason for cancellation (optional)"
      onClose={onClose}
      onConfirm={(b, reason) => clientCancel(post, b, reason, onClose, onDone)}
      blocked={
        booking?.canCancel ? undefined : (
          <>
            <p className="notice notice-inline">{CANCEL_BLOCKED}</p>
            <a className="button button-secondary" href={SUPPORT_LINK}>
              Contact support
            </a>
          </>
        )
      }
    >
      <p className="notice" role="note">
        Bookings can be cancelled up to 48 hours before the scheduled time.
      </p>
    </CancelBookingDialog>
  );
}

interface SeriesCancelResult {
  message: string;
  cancelled: number[];
  kept: number[];
}

/** GET /api/bookings/{id}/cancel-rest: what the cancel would take, keep and refund now. */
interface SeriesCancelPreview {
  cancelled: number[];
  kept: number[];
  refund: number;
}

/** The dialog's words for the preview: how many visits go, and what comes back to the card. */
function restRefundSentence(preview: SeriesCancelPreview): string {
  const visits = preview.cancelled.length === 1 ? "1 visit" : `${preview.cancelled.length} visits`;
  const money =
    preview.refund > 0
      ? `You will get ${formatMoney(preview.refund)} back to your card.`
      : "Nothing was charged for them, so there is nothing to refund.";
  return `${visits} will be cancelled. ${money}`;
}

/** "Cancel the rest of the series" (issue 18): this visit and every later one, but those less than
 * 48 hours away, which the answer names. */
function CancelRestDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { handleSubmit, values, set, error } = useSchemaForm<CancelReasonValues>({
    schema: clientCancelSchema,
    defaultValues: NO_REASON,
    onChange: "none",
    resetOn: booking?.id,
  });
  // Busy from the click until the dialog closes (or the cancellation failed).
  const [busy, setBusy] = useState(false);
  const { post } = useApiWrite([], SESSION);
  useEffect(() => setBusy(false), [booking?.id]);
  const previewPath = booking ? `/api/bookings/${booking.id}/cancel-rest` : "";
  const preview = useQuery({
    queryKey: [previewPath],
    queryFn: () => api.get<SeriesCancelPreview>(previewPath),
    enabled: booking !== null,
    gcTime: 0,
    staleTime: 0,
    retry: false,
    meta: SESSION,
  });
  const confirm = handleSubmit(async ({ reason }) => {
    if (!booking || busy) return;
    setBusy(true);
    try {
      const result = await post<SeriesCancelResult>(`/api/bookings/${booking.id}/cancel-rest`, {
        reason: reason.trim(),
      });
      toast({ title: "Visits Cancelled", description: result.message });
      onClose();
      onDone();
    } catch (error) {
      setBusy(false);
      if (isUnauthorizedError(error)) return;
      const message = error instanceof ApiError ? error.serverMessage : "";
      toast({
        title: "Cancellation Failed",
        description: message || "Failed to cancel the visits",
        variant: "destructive",
      });
      onDone();
    }
  });
  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Cancel the rest of the series"
      description="This visit and every later visit of the series will be cancelled. This cannot be undone."
      testId="cancel-rest-dialog"
      footer={
        <>
          <DialogClose>Keep the visits</DialogClose>
          <button type="button" className="button button-danger" onClick={confirm} disabled={busy}>
            {busy ? "Cancelling..." : "Cancel these visits"}
          </button>
        </>
      }
    >
      {booking?.series && (
        <p className="dialog-subject">
          <strong>{bookingTitle(booking)}</strong>
          <br />
          From visit {booking.series.index} of {booking.series.count}:{" "}
          {formatVisit(booking.scheduledDate, booking.scheduledTime, booking.recipient?.timeZone)}
        </p>
      )}
      <TextareaField
        id="cancel-rest-reason"
        label="Reason for cancellation (optional)"
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
      {/* What comes back to the card: the server's count of it (the cancel's own rules). */}
      <p className="dialog-refund" data-testid="cancel-refund" aria-live="polite">
        <strong>
          {preview.data ? restRefundSentence(preview.data) : preview.isError ? "" : "Working out the refund..."}
        </strong>
      </p>
      <p className="notice" role="note">
        Visits less than 48 hours away stay booked. Paid visits that are cancelled are refunded in full to your card.
      </p>
    </Dialog>
  );
}

const NO_REASON: CancelReasonValues = { reason: "" };
const NO_REVIEW: ReviewValues = { rating: 0, comment: "" };

const RATING_LABELS = ["Poor", "Fair", "Good", "Very good", "Excellent"];

function ReviewDialog({
  booking,
  onClose,
  onReviewed,
}: {
  booking: Booking | null;
  onClose: () => void;
  onReviewed: (id: number) => void;
}) {
  const { form, values, set, error } = useSchemaForm<ReviewValues>({
    schema: reviewSchema,
    defaultValues: NO_REVIEW,
    onChange: "none",
    resetOn: booking?.id,
  });
  const { rating } = values;
  // Busy from the submit until the dialog closes (or the review failed).
  const [busy, setBusy] = useState(false);
  const { post } = useApiWrite([], SESSION);
  useEffect(() => setBusy(false), [booking?.id]);

  const submit = form.handleSubmit(
    async (checked) => {
      if (!booking) return;
      setBusy(true);
      try {
        await post(`/api/bookings/${booking.id}/review`, reviewPayload(checked));
        toast({ title: "Review Submitted", description: "Thank you for your feedback!" });
        onReviewed(booking.id);
        onClose();
      } catch (err) {
        setBusy(false);
        if (isUnauthorizedError(err)) return;
        if (err instanceof ApiError && err.status === 409) onReviewed(booking.id);
        for (const name of ["rating", "comment"] as const) {
          const fieldMsg = err instanceof ApiError ? err.fieldErrors[name]?.[0] : undefined;
          if (fieldMsg) form.setError(name, { type: "server", message: fieldMsg });
        }
        toast({ title: "Error", description: errorMessage(err), variant: "destructive" });
      }
    },
    (invalid) => {
      // The stars first (5 leads the group), else the comment.
      document.getElementById(invalid.rating ? "review-rating-5" : "review-comment")?.focus();
    },
  );

  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Leave a Review"
      description={booking ? `How was your visit for "${bookingTitle(booking)}"?` : undefined}
      testId="review-dialog"
    >
      {booking?.hasReport && (
        <details className="review-report" open>
          <summary>The helper's visit report</summary>
          <ReportDetails booking={booking} />
        </details>
      )}
      <form onSubmit={submit} noValidate>
        <FieldSet id="review-rating" legend="Rating" required error={error("rating")}>
          <div className="rating-choices">
            {[5, 4, 3, 2, 1].map((n) => (
              <RadioOption
                key={n}
                id={`review-rating-${n}`}
                name="rating"
                value={String(n)}
                checked={rating === n}
                onChange={() => {
                  set("rating", n);
                  form.clearErrors("rating");
                }}
                label={`${n} ${n === 1 ? "star" : "stars"}`}
                description={RATING_LABELS[n - 1]}
              />
            ))}
          </div>
        </FieldSet>
        <TextareaField
          id="review-comment"
          label="Comment (optional)"
          value={values.comment}
          error={error("comment")}
          onChange={(e) => set("comment", e.currentTarget.value)}
          maxLength={TEXT_MAX}
        />
        <div className="dialog-footer">
          <DialogClose>Cancel</DialogClose>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? "Submitting..." : "Submit Review"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

// ---------------------------------------------------------------- page

function Dashboard({ user, role, hasProviderProfile, providerStatus, reviewedBookingIds, initial }: Props) {
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [cancellingRest, setCancellingRest] = useState<Booking | null>(null);
  const [reviewing, setReviewing] = useState<Booking | null>(null);
  const [reviewed, setReviewed] = useState<Set<number>>(() => new Set(reviewedBookingIds));
  const [declining, setDeclining] = useState<ServiceRequest | null>(null);
  const client = useQueryClient();

  const chosen = initial.recipientId;
  // The side shown is asked again by name: the account's type may change meanwhile.
  const query = new URLSearchParams({ view: initial.view });
  if (chosen !== null) query.set("recipient", String(chosen));
  const path = `/api/dashboard?${query.toString()}`;
  // Live: the unread count and booking changes come over the websocket; while it is down the
  // unread count is polled every 10 s (spec section 9). When it comes back, booking.updated events
  // sent meanwhile are lost, so the lists are read again too (a booking accepted meanwhile appears).
  const refetchInterval = usePollWhileDisconnected([[path], [UNREAD_COUNT]], UNREAD_POLL_MS);
  const dashboard = useQuery({
    queryKey: [path],
    queryFn: () => api.get<DashboardData>(path),
    initialData: initial,
    meta: SESSION,
  });
  const unread = useQuery<Pick<UnreadCount, "count">>({
    queryKey: [UNREAD_COUNT],
    queryFn: () => api.get<UnreadCount>(UNREAD_COUNT),
    initialData: { count: initial.unread },
    refetchInterval,
    meta: SESSION,
  });
  const { bookings, requests, tiles, clientSide } = dashboard.data;
  // The dashboard's answer carries the unread count too: the newer one shows.
  useEffect(() => {
    if (dashboard.dataUpdatedAt > unread.dataUpdatedAt)
      client.setQueryData<Pick<UnreadCount, "count">>([UNREAD_COUNT], { count: dashboard.data.unread });
  }, [client, dashboard.data.unread, dashboard.dataUpdatedAt, unread.dataUpdatedAt]);
  // A lost session is lib/query's (toast, then sign in again); any other failure shows in the cards.
  const failed = useMemo(
    () => (dashboard.error && !isUnauthorizedError(dashboard.error) ? errorMessage(dashboard.error) : ""),
    [dashboard.error],
  );

  // After a change (cancel, completed, a booking.updated event): the same data again, in one call,
  // and any visit report shown (it may have been written or corrected).
  const refresh = useCallback(() => {
    void client.invalidateQueries({ queryKey: [path] });
    void client.invalidateQueries({
      predicate: (query) => /^\/api\/bookings\/\d+\/report$/.test(String(query.queryKey[0])),
    });
  }, [client, path]);

  useRealtimeEvent("unread.count", (u) => client.setQueryData([UNREAD_COUNT], u));
  useRealtimeEvent("booking.updated", refresh);
  const connected = useConnected();

  const actions: BookingActions = {
    onCancel: setCancelling,
    onCancelRest: setCancellingRest,
    onReview: setReviewing,
    onChanged: refresh,
    reviewed,
  };

  // Accepted or not, the lists are read again (a refused request may have been taken meanwhile).
  const { accept, accepting } = useAcceptRequest({ meta: SESSION, onSettled: refresh });
  const requestActions: RequestActions = {
    onAccept: (request) => void accept(request.id),
    onDecline: setDeclining,
    busy: accepting,
  };

  return (
    <div data-island="dashboard" data-user={user.id} data-connected={connected ? "true" : "false"}>
      {role === "provider" ? <ClientSideNotice side={clientSide} /> : <HelperViewLink views={initial.views ?? []} />}
      {role === "client" && (
        <RecipientSwitcher
          recipients={initial.recipients ?? []}
          current={initial.recipientId}
          keepView={(initial.views ?? []).includes("provider")}
        />
      )}
      <Tiles role={role} tiles={tiles} unread={unread.data.count} />
      <div className="dashboard-columns">
        <BookingsCard role={role} bookings={bookings} failed={failed} actions={actions} />
        <RequestsCard
          role={role}
          providerStatus={providerStatus}
          requests={requests}
          failed={failed}
          actions={requestActions}
        />
      </div>
      {!hasProviderProfile && (
        <section className="card help-others" aria-labelledby="help-others-heading">
          <h2 id="help-others-heading">Want to Help Others?</h2>
          <p>Join our community of trusted providers and make a difference in the lives of seniors in your area.</p>
          <a className="button button-primary" href="/provider-signup">
            Become a Provider
          </a>
        </section>
      )}
      <CancelDialog booking={cancelling} onClose={() => setCancelling(null)} onDone={refresh} />
      <CancelRestDialog booking={cancellingRest} onClose={() => setCancellingRest(null)} onDone={refresh} />
      <ReviewDialog
        booking={reviewing}
        onClose={() => setReviewing(null)}
        onReviewed={(id) => {
          setReviewed((prev) => new Set(prev).add(id));
          // The helper's rating and review count changed: read them again ("New helper" no more).
          refresh();
        }}
      />
      <DeclineRequestDialog
        request={declining}
        onClose={() => setDeclining(null)}
        onDeclined={(updated) => {
          toast({
            title: "Request declined",
            description: `We told ${updated.client?.firstName || "the client"} why.`,
          });
          refresh();
        }}
      />
    </div>
  );
}

mountQueryIsland(Dashboard, "dashboard");
