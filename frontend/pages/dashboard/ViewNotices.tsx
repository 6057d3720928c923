// Someone who is both a client and a helper: the other side, said on each view.
import { plural } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { Dashboard as DashboardData } from "../../lib/types";
import type { View } from "./common";

/** "You also have 1 booking as a client (1 waiting for your payment)": the helper view of someone
 * who is also a client never hides her own requests and bookings. */
export function ClientSideNotice({ side }: { side: DashboardData["clientSide"] }) {
  if (!side) return null;
  const bookings = plural(side.bookings, { one: "# booking", other: "# bookings" });
  const requests = plural(side.requests, { one: "# open request", other: "# open requests" });
  const unpaid = side.unpaid;
  return (
    <section className="notice view-switch" aria-labelledby="client-side-heading" data-testid="client-side">
      <h2 id="client-side-heading" className="view-switch-title">
        {side.bookings && side.requests ? (
          <Trans>
            You also have {bookings} and {requests} as a client
          </Trans>
        ) : side.bookings ? (
          <Trans>You also have {bookings} as a client</Trans>
        ) : (
          <Trans>You also have {requests} as a client</Trans>
        )}
      </h2>
      {unpaid > 0 && (
        <p>
          {plural(unpaid, {
            one: "# booking is waiting for your payment.",
            other: "# bookings are waiting for your payment.",
          })}
        </p>
      )}
      <a className="button button-primary" href="/dashboard?view=client">
        <Trans>View your client bookings</Trans>
      </a>
    </section>
  );
}

/** In the client view of someone who is also a helper: the way back to her helper view. */
export function HelperViewLink({ views }: { views: View[] }) {
  if (!views.includes("provider")) return null;
  return (
    <p className="notice view-switch" data-testid="helper-view-link">
      <Trans>You are seeing your bookings as a client.</Trans>{" "}
      <a className="button button-secondary" href="/dashboard?view=provider">
        <Trans>Back to your helper view</Trans>
      </a>
    </p>
  );
}
