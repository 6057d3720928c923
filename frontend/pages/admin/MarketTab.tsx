// /admin's Market tab: do families find a helper, and how fast? The share of requests booked within a
// day of being posted, the median time to a helper's accept, and where requests went unfilled, over
// the last 7 and 30 days, and the replacements needed and found (GET /api/admin/market), with a chart of the last 30 days drawn by uPlot.
// The chart is loaded only when the tab opens (its own chunk), and its numbers are in a table too.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { LoadingText } from "../../components/Skeleton";
import { formatDate } from "../../lib/format";
import { apiQuery } from "../../lib/query";
import type { Market } from "../../lib/types";
import { TableRegion } from "./ListParts";

type Period = Market["periods"][number];
type Day = Market["daily"][number];

/** "45%" of a share from 0 to 1; "No requests yet" when there is none to judge. */
export function percentText(share: number | null): string {
  if (share === null) return t`No requests yet`;
  const percent = Math.round(share * 100);
  return t`${percent}%`;
}

/** "14 min", "2 hr 5 min", "3 days"; "No accepts yet" when none was accepted. */
export function durationText(minutes: number | null): string {
  if (minutes === null) return t`No accepts yet`;
  const whole = Math.round(minutes);
  if (whole < 60) return t`${whole} min`;
  if (whole < 48 * 60) {
    const hours = Math.floor(whole / 60);
    const rest = whole % 60;
    return rest ? t`${hours} hr ${rest} min` : t`${hours} hr`;
  }
  const days = Math.round(whole / (24 * 60));
  return plural(days, { one: "# day", other: "# days" });
}

function periodName(days: number): string {
  return plural(days, { one: "Last # day", other: "Last # days" });
}

/** "3 of 4": the requests booked in time of those judged. */
function filledOf({ filled, judged }: Period): string {
  return t`${filled} of ${judged}`;
}

function Numbers({ periods, hours }: { periods: Period[]; hours: number }) {
  return (
    <TableRegion label={t`The market's numbers`}>
      <table className="data-table" data-testid="market-numbers">
        <caption className="visually-hidden">
          <Trans>The market over the last 7 and 30 days</Trans>
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <Trans>Measure</Trans>
            </th>
            {periods.map((p) => (
              <th scope="col" key={p.days}>
                {periodName(p.days)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">
              <Trans>Requests posted</Trans>
            </th>
            {periods.map((p) => (
              <td key={p.days}>{p.posted}</td>
            ))}
          </tr>
          <tr data-testid="market-fill-rate">
            <th scope="row">
              <Trans>Booked within {hours} hours</Trans>
            </th>
            {periods.map((p) => (
              <td key={p.days}>
                <strong>{percentText(p.fillRate)}</strong>
                {p.judged > 0 && <span className="muted"> ({filledOf(p)})</span>}
              </td>
            ))}
          </tr>
          <tr data-testid="market-median">
            <th scope="row">
              <Trans>Median time to accept</Trans>
            </th>
            {periods.map((p) => (
              <td key={p.days}>{durationText(p.medianMinutesToAccept)}</td>
            ))}
          </tr>
          <tr>
            <th scope="row">
              <Trans>Not booked within {hours} hours</Trans>
            </th>
            {periods.map((p) => (
              <td key={p.days}>{p.judged - p.filled}</td>
            ))}
          </tr>
          <tr data-testid="market-replacements">
            <th scope="row">
              <Trans>Replacements needed</Trans>
            </th>
            {periods.map((p) => (
              <td key={p.days}>{p.replacementsNeeded}</td>
            ))}
          </tr>
          <tr>
            <th scope="row">
              <Trans>Replacements found</Trans>
            </th>
            {periods.map((p) => (
              <td key={p.days}>{p.replacementsFound}</td>
            ))}
          </tr>
        </tbody>
      </table>
    </TableRegion>
  );
}

function UnfilledAreas({ period }: { period: Period }) {
  const days = period.days;
  const title = plural(days, {
    one: "Unfilled requests by area, last # day",
    other: "Unfilled requests by area, last # days",
  });
  return (
    <section aria-label={title}>
      <h4>{title}</h4>
      {period.unfilledByArea.length === 0 ? (
        <p className="muted">
          <Trans>Every request was booked in time.</Trans>
        </p>
      ) : (
        <TableRegion label={title}>
          <table className="data-table" data-testid={`market-areas-${period.days}`}>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Area</Trans>
                </th>
                <th scope="col">
                  <Trans>ZIP codes</Trans>
                </th>
                <th scope="col">
                  <Trans>Unfilled</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {period.unfilledByArea.map((a) => (
                <tr key={a.zipPrefix}>
                  <td>{a.place}</td>
                  <td>{a.zipPrefix ? `${a.zipPrefix}xx` : t`No ZIP given`}</td>
                  <td>{a.unfilled}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

/** The chart: requests posted and those booked within the day, per day. uPlot is imported when the
 * chart is first drawn, so the rest of /admin does not carry it. */
function DailyChart({ daily, hours }: { daily: Day[]; hours: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let plot: { destroy(): void; setSize(size: { width: number; height: number }): void } | null = null;
    let gone = false;
    const height = 280;
    const widthOf = (el: HTMLElement) => Math.max(260, Math.min(el.clientWidth || 600, 960));
    // Redrawn to its box's width: the phone's, the desktop's, a window made narrower.
    const resized = new ResizeObserver(() => {
      if (plot && box.current) plot.setSize({ width: widthOf(box.current), height });
    });
    Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")])
      .then(([{ default: UPlot }]) => {
        if (gone || !box.current) return;
        const seconds = daily.map((d) => new Date(`${d.date}T12:00:00`).getTime() / 1000);
        // A CSS font, not words.
        // eslint-disable-next-line lingui/no-unlocalized-strings
        const font = "16px system-ui, sans-serif";
        const axis = { font, stroke: "#1f2933", grid: { stroke: "#e3e6ea" }, ticks: { stroke: "#c9ced6" } };
        plot = new UPlot(
          {
            width: widthOf(box.current),
            height,
            series: [
              {},
              { label: t`Posted`, stroke: "#0b5c61", width: 3, points: { size: 7 } },
              {
                label: t`Booked within ${hours} hours`,
                stroke: "#a34700",
                width: 3,
                dash: [8, 5],
                points: { size: 7 },
              },
            ],
            // Whole requests on the y axis, never 0.5 of one.
            axes: [
              axis,
              {
                ...axis,
                label: t`Requests`,
                labelFont: font,
                incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
              },
            ],
            scales: { y: { range: (_u, _min, max) => [0, Math.max(2, max)] } },
            legend: { live: false },
          },
          [seconds, daily.map((d) => d.posted), daily.map((d) => d.filled)],
          box.current,
        );
        resized.observe(box.current);
      })
      .catch(() => setFailed(true));
    return () => {
      gone = true;
      resized.disconnect();
      plot?.destroy();
    };
  }, [daily, hours]);

  const posted = daily.reduce((sum, d) => sum + d.posted, 0);
  const filled = daily.reduce((sum, d) => sum + d.filled, 0);
  const days = daily.length;
  const description = plural(posted, {
    one: `Line chart of the last ${days} days: # request posted, ${filled} of them booked within ${hours} hours. The numbers are in the table below the chart.`,
    other: `Line chart of the last ${days} days: # requests posted, ${filled} of them booked within ${hours} hours. The numbers are in the table below the chart.`,
  });
  return (
    <figure className="market-chart">
      <figcaption>
        <h4>
          <Trans>Requests posted and booked within {hours} hours, day by day</Trans>
        </h4>
      </figcaption>
      {failed ? (
        <p role="alert">
          <Trans>The chart could not be drawn. The numbers are in the table below.</Trans>
        </p>
      ) : (
        <div ref={box} role="img" aria-label={description} data-testid="market-chart" />
      )}
      <details className="market-chart-table">
        <summary>
          <Trans>Show the chart's numbers as a table</Trans>
        </summary>
        <TableRegion label={t`The chart's numbers, day by day`}>
          <table className="data-table" data-testid="market-daily">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Day</Trans>
                </th>
                <th scope="col">
                  <Trans>Posted</Trans>
                </th>
                <th scope="col">
                  <Trans>Booked within {hours} hours</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {daily.map((d) => (
                <tr key={d.date}>
                  <td>{formatDate(d.date)}</td>
                  <td>{d.posted}</td>
                  <td>{d.filled}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      </details>
    </figure>
  );
}

export function MarketTab() {
  const market = useQuery(apiQuery<Market>("/api/admin/market"));
  if (!market.data) {
    return market.isError ? (
      <p role="alert">
        <Trans>The market's numbers could not be loaded. Please try again.</Trans>
      </p>
    ) : (
      <LoadingText />
    );
  }
  const { periods, daily, fillWithinHours } = market.data;
  return (
    <>
      <p className="muted">
        <Trans>
          A request counts as booked when a helper accepted it within {fillWithinHours} hours of being posted. Requests
          posted in the last {fillWithinHours} hours are not counted yet.
        </Trans>
      </p>
      <Numbers periods={periods} hours={fillWithinHours} />
      <DailyChart daily={daily} hours={fillWithinHours} />
      {periods.map((p) => (
        <UnfilledAreas key={p.days} period={p} />
      ))}
    </>
  );
}
