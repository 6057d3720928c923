// /admin's Today tab: every visit of the day and its state, kept fresh.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
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

function BookingNumber({ id }: { id: number }) {
  return (
    <span className="muted">
      <Trans>(booking #{id})</Trans>
    </span>
  );
}

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
    return failedToLoad ? (
      <p role="alert">
        <Trans>Today's visits could not be loaded. Please try again.</Trans>
      </p>
    ) : (
      <LoadingText />
    );
  }
  const count = (state: string) => visits.filter((v) => v.visitState === state).length;
  return (
    <>
      <CountCards
        label={t`Today's visits by state`}
        cards={[
          { key: "Visits today", label: t`Visits today`, value: visits.length },
          { key: "In progress", label: t`In progress`, value: count("in_progress") },
          { key: "Late or missed", label: t`Late or missed`, value: count("late") + count("missed") },
          { key: "Done", label: t`Done`, value: count("done") },
        ]}
      />
      <h3>
        <Trans>Every visit today</Trans>
      </h3>
      {failedToLoad && (
        <p role="alert">
          <Trans>Could not refresh just now; showing the last list.</Trans>
        </p>
      )}
      {visits.length === 0 ? (
        <EmptyState title={t`No visits today`} headingLevel={4} />
      ) : (
        <TableRegion label={t`Every visit today`}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>When</Trans>
                </th>
                <th scope="col">
                  <Trans>Client</Trans>
                </th>
                <th scope="col">
                  <Trans>Provider</Trans>
                </th>
                <th scope="col">
                  <Trans>State</Trans>
                </th>
                <th scope="col">
                  <Trans>Checked in</Trans>
                </th>
                <th scope="col">
                  <Trans>Checked out</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {visits.map((b) => (
                <tr key={b.id} data-testid="admin-today-visit" data-state={b.visitState}>
                  <td>
                    {formatClock(b.visitStart, b.recipient?.timeZone)} <BookingNumber id={b.id} />
                  </td>
                  <td>{clientName(b.client)}</td>
                  <td>{personName(b.provider.user) || t`Provider not found`}</td>
                  <td>
                    <StatusBadge status={b.visitState} label={visitStateLabel(b.visitState)} />
                  </td>
                  <td>
                    {b.checkedInAt ? (
                      formatClock(b.checkedInAt, b.recipient?.timeZone)
                    ) : (
                      <span className="muted">{t`Not yet`}</span>
                    )}
                  </td>
                  <td>
                    {b.checkedOutAt ? (
                      formatClock(b.checkedOutAt, b.recipient?.timeZone)
                    ) : (
                      <span className="muted">{t`Not yet`}</span>
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

function providerNumber(id: number): string {
  return t`Provider #${id}`;
}

function percentOf(share: number): string {
  const percent = Math.round(share * 100);
  return t`${percent}%`;
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
      <h3>
        <Trans>Check-ins at the home, last 90 days</Trans>
      </h3>
      {shares.isError && (
        <p role="alert">
          <Trans>The check-in places could not be loaded. Please try again.</Trans>
        </p>
      )}
      {shares.data === undefined && !shares.isError ? (
        <LoadingText />
      ) : rows.length === 0 ? (
        <EmptyState title={t`No check-ins in the last 90 days`} headingLevel={4} />
      ) : (
        <TableRegion label={t`Check-ins at the home per helper`}>
          <table className="data-table" data-testid="admin-verified-share">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Helper</Trans>
                </th>
                <th scope="col">
                  <Trans>Visits</Trans>
                </th>
                <th scope="col">
                  <Trans>At the home</Trans>
                </th>
                <th scope="col">
                  <Trans>Elsewhere (with a reason)</Trans>
                </th>
                <th scope="col">
                  <Trans>Share at the home</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.providerId}>
                  <td>{r.name || providerNumber(r.providerId)}</td>
                  <td>{r.visits}</td>
                  <td>{r.verified}</td>
                  <td>{r.unverified}</td>
                  <td>
                    {r.share === null ? (
                      <span className="muted">
                        <Trans>Not compared</Trans>
                      </span>
                    ) : (
                      percentOf(r.share)
                    )}
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
