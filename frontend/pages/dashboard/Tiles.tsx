// The dashboard's tiles: a helper's day and completed visits, or a client's ways to get help; messages.
import { Trans } from "@lingui/react/macro";
import { intlLocale } from "../../lib/i18n";
import { UnreadBadge } from "../../components/UnreadBadge";
import type { Dashboard as DashboardData } from "../../lib/types";
import type { View } from "./common";

export function Tiles({ role, tiles, unread }: { role: View; tiles: DashboardData["tiles"]; unread: number }) {
  const count = (status: "today" | "completed") => (tiles?.[status] ?? 0).toLocaleString(intlLocale());
  return (
    <section aria-labelledby="overview-heading" className="dashboard-section">
      <h2 id="overview-heading" className="visually-hidden">
        <Trans>Overview</Trans>
      </h2>
      <ul className="tiles">
        {role === "provider" ? (
          <>
            <li className="tile" data-testid="tile-schedule">
              <span className="tile-label">
                <Trans>Today's Schedule</Trans>
              </span>
              <span className="tile-count">{count("today")}</span>
            </li>
            <li className="tile" data-testid="tile-completed">
              <span className="tile-label">
                <Trans>Completed</Trans>
              </span>
              <span className="tile-count">{count("completed")}</span>
            </li>
          </>
        ) : (
          <>
            <li className="tile">
              <a className="tile-link" href="/request-service">
                <span className="tile-label">
                  <Trans>Request Service</Trans>
                </span>
                <span className="tile-text">
                  <Trans>Get help from a verified provider</Trans>
                </span>
              </a>
            </li>
            <li className="tile">
              <a className="tile-link" href="/providers">
                <span className="tile-label">
                  <Trans>Browse Providers</Trans>
                </span>
                <span className="tile-text">
                  <Trans>Find trusted helpers near you</Trans>
                </span>
              </a>
            </li>
          </>
        )}
        <li className="tile">
          <a className="tile-link" href="/messages" data-testid="tile-messages">
            <span className="tile-label">
              <Trans>Messages</Trans> <UnreadBadge count={unread} />
            </span>
            <span className="tile-text">
              {role === "provider" ? <Trans>Talk with your clients</Trans> : <Trans>Talk with your providers</Trans>}
            </span>
          </a>
        </li>
        <li className="tile">
          <span className="tile-label">
            <Trans>Recent Activity</Trans>
          </span>
          <span className="tile-text">
            <Trans>Your latest updates</Trans>
          </span>
        </li>
      </ul>
    </section>
  );
}
