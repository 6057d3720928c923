// Dashboard (/ signed in, /dashboard): tiles, bookings, requests, the client's cancel and
// review dialogs (offered once the visit report is in), the provider's Check in / Check out with the
// visit report (the spec's "Mark as Completed" became the check-out), and the family's
// "Checked in at 9:04" / "Visit report ready" as they happen (spec section 2 "Dashboard").
// Its data is a TanStack query (lib/query) seeded by the page's props, so the first paint asks the
// API for nothing; booking events re-read it, and the unread count is polled only while the socket is down.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { api, errorMessage, isUnauthorizedError } from "../../lib/api";
import { useOpenedOnce } from "../../lib/opened";
import { usePollWhileDisconnected } from "../../lib/query";
import { useConnected, useRealtimeEvent } from "../../lib/realtime";
import { toast } from "../../lib/toast";
import type { Booking, Dashboard as DashboardData, ServiceRequest, UnreadCount, UserType } from "../../lib/types";
import { useAcceptRequest } from "../../lib/useAcceptRequest";
import type { BookingActions } from "./BookingItem";
import { BookingsCard } from "./BookingsCard";
import { RecipientSwitcher } from "./Recipients";
import { ReplacementOffersCard } from "./ReplacementOffersCard";
import type { RequestActions } from "./RequestItem";
import { RequestsCard } from "./RequestsCard";
import { Tiles } from "./Tiles";
import { TipDialog } from "./TipDialog";
import { ClientSideNotice, HelperViewLink } from "./ViewNotices";
import { type ProviderStatus, SESSION, UNREAD_COUNT, UNREAD_POLL_MS, type View } from "./common";

interface Props {
  user: { id: string; firstName: string; userType: UserType };
  /** The side shown (marketplace.dashboard: ?view=, by default the account's type). */
  role: View;
  hasProviderProfile: boolean;
  /** marketplace.dashboard: only "verified" is shown open requests. */
  providerStatus: ProviderStatus;
  reviewedBookingIds: number[];
  /** The first data, rendered with the page (marketplace.dashboard.DashboardSerializer): no API call before the first paint. */
  initial: DashboardData;
}

// The dialogs a person may never open load when first opened (each its own chunk; lib/opened).
const CancelDialog = lazy(() => import("./CancelDialog").then((m) => ({ default: m.CancelDialog })));
const CancelRestDialog = lazy(() => import("./CancelRestDialog").then((m) => ({ default: m.CancelRestDialog })));
const ProviderCancelDialog = lazy(() =>
  import("./ProviderCancelDialog").then((m) => ({ default: m.ProviderCancelDialog })),
);
const ReviewDialog = lazy(() => import("./ReviewDialog").then((m) => ({ default: m.ReviewDialog })));
const DeclineRequestDialog = lazy(() =>
  import("../../components/DeclineRequestDialog").then((m) => ({ default: m.DeclineRequestDialog })),
);
const NotForMeDialog = lazy(() => import("./NotForMeDialog").then((m) => ({ default: m.NotForMeDialog })));

export function Dashboard({ user, role, hasProviderProfile, providerStatus, reviewedBookingIds, initial }: Props) {
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [cancellingRest, setCancellingRest] = useState<Booking | null>(null);
  const [leaving, setLeaving] = useState<Booking | null>(null);
  const [reviewing, setReviewing] = useState<Booking | null>(null);
  const [tipping, setTipping] = useState<Booking | null>(null);
  const [reviewed, setReviewed] = useState<Set<number>>(() => new Set(reviewedBookingIds));
  const [declining, setDeclining] = useState<ServiceRequest | null>(null);
  const [passing, setPassing] = useState<ServiceRequest | null>(null);
  const cancelOpened = useOpenedOnce(cancelling);
  const cancelRestOpened = useOpenedOnce(cancellingRest);
  const leaveOpened = useOpenedOnce(leaving);
  const reviewOpened = useOpenedOnce(reviewing);
  const passOpened = useOpenedOnce(passing);
  const declineOpened = useOpenedOnce(declining);
  const client = useQueryClient();

  const chosen = initial.recipientId;
  // The side shown is asked again by name: the account's type may change meanwhile.
  const query = new URLSearchParams({ view: initial.view });
  if (chosen !== null) query.set("recipient", String(chosen));
  const path = `/api/dashboard?${query.toString()}`;
  // Live: the unread count and booking changes come over the websocket; while it is down the
  // unread count is polled every 10 s (spec section 9). When it comes back, booking.updated events
  // sent meanwhile are lost, so the lists are read again too (a booking accepted meanwhile appears).
  const refetchInterval = usePollWhileDisconnected([[path], [UNREAD_COUNT]], UNREAD_POLL_MS);
  const dashboard = useQuery({
    queryKey: [path],
    queryFn: () => api.get<DashboardData>(path),
    initialData: initial,
    meta: SESSION,
  });
  const unread = useQuery<Pick<UnreadCount, "count">>({
    queryKey: [UNREAD_COUNT],
    queryFn: () => api.get<UnreadCount>(UNREAD_COUNT),
    initialData: { count: initial.unread },
    refetchInterval,
    meta: SESSION,
  });
  const { bookings, requests, tiles, clientSide } = dashboard.data;
  // The dashboard's answer carries the unread count too: the newer one shows.
  useEffect(() => {
    if (dashboard.dataUpdatedAt > unread.dataUpdatedAt)
      client.setQueryData<Pick<UnreadCount, "count">>([UNREAD_COUNT], { count: dashboard.data.unread });
  }, [client, dashboard.data.unread, dashboard.dataUpdatedAt, unread.dataUpdatedAt]);
  // A lost session is lib/query's (toast, then sign in again); any other failure shows in the cards.
  const failed = useMemo(
    () => (dashboard.error && !isUnauthorizedError(dashboard.error) ? errorMessage(dashboard.error) : ""),
    [dashboard.error],
  );

  // After a change (cancel, completed, a booking.updated event): the same data again, in one call,
  // and any visit report shown (it may have been written or corrected).
  const refresh = useCallback(() => {
    void client.invalidateQueries({ queryKey: [path] });
    void client.invalidateQueries({
      predicate: (query) => /^\/api\/bookings\/\d+\/report$/.test(String(query.queryKey[0])),
    });
  }, [client, path]);

  useRealtimeEvent("unread.count", (u) => client.setQueryData([UNREAD_COUNT], u));
  useRealtimeEvent("booking.updated", refresh);
  const connected = useConnected();

  const actions: BookingActions = {
    onCancel: setCancelling,
    onCancelRest: setCancellingRest,
    onReview: setReviewing,
    onProviderCancel: setLeaving,
    onTip: setTipping,
    onChanged: refresh,
    reviewed,
  };

  // Accepted or not, the lists are read again (a refused request may have been taken meanwhile).
  const { accept, accepting } = useAcceptRequest({ meta: SESSION, onSettled: refresh });
  const requestActions: RequestActions = {
    onAccept: (request) => void accept(request.id),
    onDecline: setDeclining,
    onPass: setPassing,
    busy: accepting,
  };

  return (
    <div data-island="dashboard" data-user={user.id} data-connected={connected ? "true" : "false"}>
      {role === "provider" ? <ClientSideNotice side={clientSide} /> : <HelperViewLink views={initial.views ?? []} />}
      {role === "client" && (
        <RecipientSwitcher
          recipients={initial.recipients ?? []}
          current={initial.recipientId}
          keepView={(initial.views ?? []).includes("provider")}
        />
      )}
      <Tiles role={role} tiles={tiles} unread={unread.data.count} />
      {role === "provider" && providerStatus === "verified" && (
        <ReplacementOffersCard initial={dashboard.data.replacementOffers} onTaken={refresh} />
      )}
      <div className="dashboard-columns">
        <BookingsCard role={role} bookings={bookings} failed={failed} actions={actions} />
        <RequestsCard
          role={role}
          providerStatus={providerStatus}
          requests={requests}
          failed={failed}
          actions={requestActions}
        />
      </div>
      {!hasProviderProfile && (
        <section className="card help-others" aria-labelledby="help-others-heading">
          <h2 id="help-others-heading">
            <Trans>Want to Help Others?</Trans>
          </h2>
          <p>
            <Trans>
              Join our community of trusted providers and make a difference in the lives of seniors in your area.
            </Trans>
          </p>
          <a className="button button-primary" href="/provider-signup">
            <Trans>Become a Provider</Trans>
          </a>
        </section>
      )}
      {cancelOpened && (
        <Suspense fallback={null}>
          <CancelDialog booking={cancelling} onClose={() => setCancelling(null)} onDone={refresh} />
        </Suspense>
      )}
      {cancelRestOpened && (
        <Suspense fallback={null}>
          <CancelRestDialog booking={cancellingRest} onClose={() => setCancellingRest(null)} onDone={refresh} />
        </Suspense>
      )}
      {leaveOpened && (
        <Suspense fallback={null}>
          <ProviderCancelDialog booking={leaving} onClose={() => setLeaving(null)} onDone={refresh} />
        </Suspense>
      )}
      {reviewOpened && (
        <Suspense fallback={null}>
          <ReviewDialog
            booking={reviewing}
            onClose={() => setReviewing(null)}
            onReviewed={(id) => {
              setReviewed((prev) => new Set(prev).add(id));
              // The helper's rating and review count changed: read them again ("New helper" no more).
              refresh();
            }}
          />
        </Suspense>
      )}
      <TipDialog booking={tipping} onClose={() => setTipping(null)} />
      {passOpened && (
        <Suspense fallback={null}>
          <NotForMeDialog
            request={passing}
            onClose={() => setPassing(null)}
            onPassed={() => {
              toast({ title: t`Passed on`, description: t`Another helper nearby is being offered it.` });
              refresh();
            }}
          />
        </Suspense>
      )}
      {declineOpened && (
        <Suspense fallback={null}>
          <DeclineRequestDialog
            request={declining}
            onClose={() => setDeclining(null)}
            onDeclined={(updated) => {
              const client = updated.client?.firstName;
              toast({
                title: t`Request declined`,
                description: client ? t`We told ${client} why.` : t`We told the client why.`,
              });
              refresh();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
