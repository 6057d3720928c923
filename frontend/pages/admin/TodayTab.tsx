// /admin's Today tab: every visit of the day and its state, kept fresh.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { EmptyState } from "../../components/EmptyState";
import { LoadingText } from "../../components/Skeleton";
import { StatusBadge } from "../../components/StatusBadge";
import { formatClock, personName, visitStateLabel } from "../../lib/format";
import { apiQuery } from "../../lib/query";
import { useRealtimeEvent } from "../../lib/realtime";
import type { Visit } from "../../lib/types";
import { CountCards, TableRegion } from "./ListParts";
import { clientName } from "./common";

/** How often the Today tab asks again: states change with the clock (late, missed), not only on events. */
const TODAY_REFRESH_MS = 30_000;

export function TodayTab() {
  const today = useQuery({ ...apiQuery<Visit[]>("/api/admin/today"), refetchInterval: TODAY_REFRESH_MS });
  const client = useQueryClient();
  // A check-in, check-out or alert about a visit: ask again at once.
  const refresh = () => void client.invalidateQueries({ queryKey: ["/api/admin/today"] });
  useRealtimeEvent("booking.updated", refresh);
  useRealtimeEvent("message.created", refresh);
  const visits = today.data ?? null;
  const failedToLoad = today.isError;

  if (visits === null) {
    return failedToLoad ? <p role="alert">Today's visits could not be loaded. Please try again.</p> : <LoadingText />;
  }
  const count = (state: string) => visits.filter((v) => v.visitState === state).length;
  return (
    <>
      <CountCards
        label="Today's visits by state"
        cards={[
          { label: "Visits today", value: visits.length },
          { label: "In progress", value: count("in_progress") },
          { label: "Late or missed", value: count("late") + count("missed") },
          { label: "Done", value: count("done") },
        ]}
      />
      <h3>Every visit today</h3>
      {failedToLoad && <p role="alert">Could not refresh just now; showing the last list.</p>}
      {visits.length === 0 ? (
        <EmptyState title="No visits today" headingLevel={4} />
      ) : (
        <TableRegion label="Every visit today">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Client</th>
                <th scope="col">Provider</th>
                <th scope="col">State</th>
                <th scope="col">Checked in</th>
                <th scope="col">Checked out</th>
              </tr>
            </thead>
            <tbody>
              {visits.map((b) => (
                <tr key={b.id} data-testid="admin-today-visit" data-state={b.visitState}>
                  <td>
                    {formatClock(b.visitStart, b.recipient?.timeZone)} <span className="muted">(booking #{b.id})</span>
                  </td>
                  <td>{clientName(b.client)}</td>
                  <td>{personName(b.provider.user) || "Provider not found"}</td>
                  <td>
                    <StatusBadge status={b.visitState} label={visitStateLabel(b.visitState)} />
                  </td>
                  <td>
                    {b.checkedInAt ? (
                      formatClock(b.checkedInAt, b.recipient?.timeZone)
                    ) : (
                      <span className="muted">Not yet</span>
                    )}
                  </td>
                  <td>
                    {b.checkedOutAt ? (
                      formatClock(b.checkedOutAt, b.recipient?.timeZone)
                    ) : (
                      <span className="muted">Not yet</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <VerifiedShare />
    </>
  );
}

interface HelperShare {
  providerId: number;
  name: string;
  visits: number;
  verified: number;
  unverified: number;
  share: number | null;
}

/** Per helper, how many check-ins of the last 90 days were at the home (the lowest share first):
 * an "unverified" one has her reason on the booking; "not compared" homes are not counted. */
function VerifiedShare() {
  const shares = useQuery(apiQuery<HelperShare[]>("/api/admin/visit-verification"));
  const rows = shares.data ?? [];
  return (
    <>
      <h3>Check-ins at the home, last 90 days</h3>
      {shares.isError && <p role="alert">The check-in places could not be loaded. Please try again.</p>}
      {shares.data === undefined && !shares.isError ? (
        <LoadingText />
      ) : rows.length === 0 ? (
        <EmptyState title="No check-ins in the last 90 days" headingLevel={4} />
      ) : (
        <TableRegion label="Check-ins at the home per helper">
          <table className="data-table" data-testid="admin-verified-share">
            <thead>
              <tr>
                <th scope="col">Helper</th>
                <th scope="col">Visits</th>
                <th scope="col">At the home</th>
                <th scope="col">Elsewhere (with a reason)</th>
                <th scope="col">Share at the home</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.providerId}>
                  <td>{r.name || `Provider #${r.providerId}`}</td>
                  <td>{r.visits}</td>
                  <td>{r.verified}</td>
                  <td>{r.unverified}</td>
                  <td>
                    {r.share === null ? <span className="muted">Not compared</span> : `${Math.round(r.share * 100)}%`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}
