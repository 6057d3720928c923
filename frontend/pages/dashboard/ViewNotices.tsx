// Someone who is both a client and a helper: the other side, said on each view.
import { plural } from "../../lib/format";
import type { Dashboard as DashboardData } from "../../lib/types";
import type { View } from "./common";

/** "You also have 1 booking as a client (1 waiting for your payment)": the helper view of someone
 * who is also a client never hides her own requests and bookings. */
export function ClientSideNotice({ side }: { side: DashboardData["clientSide"] }) {
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
export function HelperViewLink({ views }: { views: View[] }) {
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
