// "Your Bookings" / "Upcoming Appointments": one-off bookings, and each series with its visits.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { BookingPerson } from "../../components/BookingPerson";
import { EmptyState } from "../../components/EmptyState";
import { repeatLabel, shortDay } from "../../lib/series";
import type { Booking } from "../../lib/types";
import { type BookingActions, BookingItem, payableBy } from "./BookingItem";
import { ForWhom } from "./Recipients";
import { bookingTitle, LIST_LIMIT, type View } from "./common";

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
  const parts = [repeatLabel(first.series.repeat), plural(first.series.count, { one: "# visit", other: "# visits" })];
  if (next) {
    const day = shortDay(next.scheduledDate);
    parts.push(t`next ${day}`);
  }
  return parts.join(" · ");
}

function visitsOf(booking: Booking): string {
  const title = bookingTitle(booking);
  return t`Visits of ${title}`;
}

function SeriesItem({ visits, role, actions }: { visits: Booking[]; role: View; actions: BookingActions }) {
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
      <ul className="item-list series-visits" aria-label={visitsOf(first)}>
        {visits.map((b) => (
          <BookingItem key={b.id} booking={b} role={role} actions={actions} payNote={b.id === firstToPay?.id} />
        ))}
      </ul>
    </li>
  );
}

export function BookingsCard({
  role,
  bookings,
  failed,
  actions,
}: {
  role: View;
  bookings: Booking[];
  failed: string;
  actions: BookingActions;
}) {
  const title = role === "provider" ? t`Upcoming Appointments` : t`Your Bookings`;
  return (
    <section className="card dashboard-card" aria-labelledby="bookings-heading" data-testid="bookings-card">
      <h2 id="bookings-heading">{title}</h2>
      {failed ? (
        <p role="alert" className="field-error">
          <Trans>We couldn't load your bookings: {failed}</Trans>
        </p>
      ) : bookings.length === 0 ? (
        <EmptyState
          title={t`No bookings yet`}
          action={
            role === "client" ? (
              <a className="button button-primary" href="/request-service">
                <Trans>Request Your First Service</Trans>
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
