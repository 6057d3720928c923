// /admin (spec section 2 "Admin dashboard"), also the admin's landing: a summary (pending
// applications, today's bookings), then tabs (Providers, Bookings, Disputes: late fees families
// disputed, Service Requests, Today: every visit of the day with its state, and Market: fill rate,
// time to accept, unfilled areas) with count cards, provider approval (confirmed in a dialog), and
// the Reassign / Cancel booking dialogs.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import * as Tabs from "@radix-ui/react-tabs";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useState } from "react";
import { LoadingText } from "../../components/Skeleton";
import type { Page } from "../../lib/api";
import { useSeededQuery } from "../../lib/query";
import type { Booking } from "../../lib/types";
import { ProvidersTab } from "./ProvidersTab";
import { Summary } from "./Summary";
import { BOOKINGS, type Counts, SUMMARY } from "./common";

interface Props {
  admin: { id: string; firstName: string };
  /** The site's date ("YYYY-MM-DD"): which bookings are today's. */
  today: string;
  /** The count cards as the page was rendered; refreshed after each change. */
  counts: Counts;
  /** The summary's first page of today's bookings, rendered with the page. */
  todayBookings: Page<Booking>;
}

/** The count cards, seeded by the page; an action elsewhere invalidates them. If a refresh
 * fails the cards keep their last numbers; the lists say when they cannot load. */
function useCounts(initial: Counts) {
  const client = useQueryClient();
  const { data } = useSeededQuery<Counts>(SUMMARY, initial);
  const reload = useCallback(() => client.invalidateQueries({ queryKey: [SUMMARY] }), [client]);
  return [data, reload] as const;
}

// The first tab comes with the page; the others load when opened (each its own chunk), so the page
// stays light with the Market tab's chart library (uPlot) too. Each panel waits inside itself, so
// the open tab's aria-controls always names a panel that is there, loading or not.
const VettingTab = lazy(() => import("./VettingTab").then((m) => ({ default: m.VettingTab })));
const BookingsTab = lazy(() => import("./BookingsTab").then((m) => ({ default: m.BookingsTab })));
const RequestsTab = lazy(() => import("./RequestsTab").then((m) => ({ default: m.RequestsTab })));
const TodayTab = lazy(() => import("./TodayTab").then((m) => ({ default: m.TodayTab })));
const MarketTab = lazy(() => import("./MarketTab").then((m) => ({ default: m.MarketTab })));
const DisputesTab = lazy(() => import("./DisputesTab").then((m) => ({ default: m.DisputesTab })));
const PhoneTab = lazy(() => import("./PhoneTab").then((m) => ({ default: m.PhoneTab })));

type TabName = "providers" | "vetting" | "bookings" | "disputes" | "requests" | "today" | "market" | "phone";

export function AdminDashboard({ today, counts: initialCounts, todayBookings }: Props) {
  const [counts, reloadCounts] = useCounts(initialCounts);
  const client = useQueryClient();
  const [tab, setTab] = useState<TabName>("providers");
  // "Review pending applications": open the Providers tab, then move to its Pending Approval list.
  const [focusPending, setFocusPending] = useState(false);
  const pendingFocused = useCallback(() => setFocusPending(false), []);
  // A booking changed: every list of bookings (the tab's, the summary's) and the counts are asked again.
  const bookingsChanged = useCallback(async () => {
    await Promise.all([client.invalidateQueries({ queryKey: [BOOKINGS] }), reloadCounts()]);
  }, [client, reloadCounts]);

  return (
    <>
      <Summary
        today={today}
        initial={todayBookings}
        pending={counts.providers.pending}
        onReviewPending={() => {
          setTab("providers");
          setFocusPending(true);
        }}
      />
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as TabName)} className="admin-tabs">
        <Tabs.List className="tab-list" aria-label={t`Admin sections`}>
          <Tabs.Trigger className="tab" value="providers">
            <Trans>Providers</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="vetting">
            <Trans>Vetting</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="bookings">
            <Trans>Bookings</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="disputes">
            <Trans>Disputes</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="requests">
            <Trans>Service Requests</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="today">
            <Trans>Today</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="market">
            <Trans>Market</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="phone">
            <Trans>Phone</Trans>
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-panel" value="providers">
          <h2 className="visually-hidden">
            <Trans>Providers</Trans>
          </h2>
          <ProvidersTab
            counts={counts.providers}
            onChanged={reloadCounts}
            focusPending={focusPending}
            onPendingFocused={pendingFocused}
          />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="vetting">
          <h2 className="visually-hidden">
            <Trans>Vetting</Trans>
          </h2>
          <Suspense fallback={<LoadingText />}>
            <VettingTab />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="bookings">
          <h2 className="visually-hidden">
            <Trans>Bookings</Trans>
          </h2>
          <Suspense fallback={<LoadingText />}>
            <BookingsTab counts={counts.bookings} onChanged={bookingsChanged} />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="disputes">
          <h2 className="visually-hidden">
            <Trans>Late fee disputes</Trans>
          </h2>
          <Suspense fallback={<LoadingText />}>
            <DisputesTab />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="requests">
          <h2 className="visually-hidden">
            <Trans>Service Requests</Trans>
          </h2>
          <Suspense fallback={<LoadingText />}>
            <RequestsTab counts={counts.serviceRequests} />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="today">
          <h2 className="visually-hidden">
            <Trans>Today</Trans>
          </h2>
          <Suspense fallback={<LoadingText />}>
            <TodayTab />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="market">
          <h2 className="visually-hidden">
            <Trans>Market</Trans>
          </h2>
          <Suspense fallback={<LoadingText />}>
            <MarketTab />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="phone">
          <h2 className="visually-hidden">
            <Trans>Phone</Trans>
          </h2>
          <Suspense fallback={<LoadingText />}>
            <PhoneTab />
          </Suspense>
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
