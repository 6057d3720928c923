// The dashboard's tiles: a helper's day and completed visits, or a client's ways to get help; messages.
import { UnreadBadge } from "../../components/UnreadBadge";
import type { Dashboard as DashboardData } from "../../lib/types";
import type { View } from "./common";

export function Tiles({ role, tiles, unread }: { role: View; tiles: DashboardData["tiles"]; unread: number }) {
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
