// The admin's landing: pending applications and today's bookings at a glance.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { StatusBadge } from "../../components/StatusBadge";
import type { Page } from "../../lib/api";
import { formatDate, TIME_WINDOWS, windowLabel } from "../../lib/format";
import type { Booking } from "../../lib/types";
import { usePagedList } from "../../lib/usePagedList";
import { ListState } from "./ListParts";
import { BOOKINGS, clientName, providerName } from "./common";

const WINDOW_ORDER = TIME_WINDOWS.map((w) => w.value as string);

/** Today's visits (the server picks the date), cancelled ones left out, in time-window order. */
function todaysBookings(bookings: Booking[]): Booking[] {
  const rank = (b: Booking) => {
    const i = WINDOW_ORDER.indexOf(b.scheduledTime);
    return i === -1 ? WINDOW_ORDER.length : i;
  };
  return bookings.filter((b) => b.status !== "cancelled").sort((a, b) => rank(a) - rank(b) || a.id - b.id);
}

/** A day's bookings fit one answer (the largest page); more would say "and N more". */
// The first page is rendered with the page (TODAY_PAGE in adminpanel/views.py): keep them equal.
const DAY_PAGE = 200;

export function Summary({
  today,
  initial,
  pending,
  onReviewPending,
}: {
  today: string;
  initial: Page<Booking>;
  pending: number;
  onReviewPending: () => void;
}) {
  // Seeded by the page; a change of a booking invalidates this list with the others (AdminDashboard).
  const { list: bookings } = usePagedList<Booking>(BOOKINGS, { date: today }, DAY_PAGE, initial);
  return (
    <section className="admin-summary" aria-labelledby="summary-heading" data-testid="admin-summary">
      <h2 id="summary-heading">
        <Trans>Today at a glance</Trans>
      </h2>
      <div className="admin-summary-grid">
        <section className="card" aria-labelledby="summary-pending-heading" data-testid="summary-pending">
          <h3 id="summary-pending-heading">
            <Trans>Pending applications</Trans>
          </h3>
          <p className="count-value" data-testid="summary-pending-count">
            {pending}
          </p>
          <p>
            {pending === 0
              ? t`No application is waiting for a review.`
              : plural(pending, {
                  one: "# application is waiting for a review.",
                  other: "# applications are waiting for a review.",
                })}
          </p>
          {pending > 0 && (
            <a
              className="button button-primary"
              href="#group-pending-approval"
              onClick={(event) => {
                event.preventDefault();
                onReviewPending();
              }}
            >
              <Trans>Review pending applications</Trans>
            </a>
          )}
        </section>
        <section className="card" aria-labelledby="summary-today-heading" data-testid="summary-today">
          <h3 id="summary-today-heading">
            <Trans>Today's bookings</Trans>
          </h3>
          <p className="muted">{formatDate(today)}</p>
          <ListState
            list={bookings}
            empty={
              <p>
                <Trans>No bookings today.</Trans>
              </p>
            }
          >
            {(items) => {
              const todays = todaysBookings(items);
              if (todays.length === 0)
                return (
                  <p>
                    <Trans>No bookings today.</Trans>
                  </p>
                );
              const more = (bookings.total ?? 0) - items.length;
              return (
                <>
                  <ul className="plain-list admin-today-list">
                    {todays.map((b) => {
                      const client = clientName(b.client);
                      const provider = providerName(b);
                      const id = b.id;
                      return (
                        <li key={b.id} data-testid="summary-booking">
                          <span className="admin-today-when">
                            {windowLabel(b.scheduledTime, b.scheduledDate, b.recipient?.timeZone)}
                          </span>
                          <span>
                            <Trans>
                              {client} with {provider} <span className="muted">(booking #{id})</span>
                            </Trans>
                          </span>
                          <StatusBadge status={b.status} />
                        </li>
                      );
                    })}
                  </ul>
                  {more > 0 && (
                    <p className="muted">
                      {plural(more, {
                        one: "and # more booking today (see the Bookings tab).",
                        other: "and # more bookings today (see the Bookings tab).",
                      })}
                    </p>
                  )}
                </>
              );
            }}
          </ListState>
        </section>
      </div>
    </section>
  );
}
