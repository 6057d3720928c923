// A helper's "Visits that need a helper": visits near her whose helper cannot come, offered to her
// (GET /api/replacement-offers); the first to take one makes the visit. Shown only when there are some.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, ApiError, isUnauthorizedError } from "../../lib/api";
import { formatVisit, milesAway } from "../../lib/format";
import { useApiWrite } from "../../lib/query";
import { useRealtimeEvent } from "../../lib/realtime";
import { toast } from "../../lib/toast";
import type { ReplacementOffer } from "../../lib/types";
import { SESSION } from "./common";

export const REPLACEMENT_OFFERS = "/api/replacement-offers";

function away(miles: number | null | undefined): string {
  return miles === null || miles === undefined ? "" : milesAway(miles);
}

export function ReplacementOffersCard({ initial, onTaken }: { initial: ReplacementOffer[]; onTaken: () => void }) {
  // Painted with the page (the dashboard's data); read again after a change.
  const offers = useQuery({
    queryKey: [REPLACEMENT_OFFERS],
    queryFn: () => api.get<ReplacementOffer[]>(REPLACEMENT_OFFERS),
    initialData: initial,
    meta: SESSION,
  });
  const { post } = useApiWrite([[REPLACEMENT_OFFERS]], SESSION);
  const [taking, setTaking] = useState<number | null>(null);
  useRealtimeEvent("booking.updated", () => void offers.refetch());
  const rows = offers.data ?? [];
  if (rows.length === 0) return null;

  async function take(offer: ReplacementOffer) {
    setTaking(offer.bookingId);
    try {
      await post(`/api/bookings/${offer.bookingId}/replacement/accept`);
      const arrival = offer.arrival;
      toast({ title: t`Visit taken`, description: t`Thank you. The family expects you at ${arrival}.` });
    } catch (err) {
      if (!isUnauthorizedError(err)) {
        const message = err instanceof ApiError ? err.serverMessage : "";
        toast({
          title: t`Could not take the visit`,
          description: message || t`Please try again.`,
          variant: "destructive",
        });
      }
    } finally {
      setTaking(null);
      void offers.refetch();
      onTaken();
    }
  }

  return (
    <section className="card" aria-labelledby="replacement-offers-heading" data-testid="replacement-offers">
      <h2 id="replacement-offers-heading">
        <Trans>Visits that need a helper</Trans>
      </h2>
      <p className="muted">
        <Trans>The family's helper cannot come. The first helper to take a visit makes it.</Trans>
      </p>
      <ul className="list">
        {rows.map((offer) => {
          const titleId = `replacement-offer-${offer.bookingId}`;
          const arrival = offer.arrival;
          return (
            <li key={offer.bookingId} className="list-item" aria-labelledby={titleId} data-testid="replacement-offer">
              <h3 id={titleId} className="list-item-title">
                {offer.title}
              </h3>
              <p className="list-item-meta">
                <span>{formatVisit(offer.scheduledDate, offer.scheduledTime, offer.recipientTimeZone)}</span>
                <span>
                  <Trans>Arrive at {arrival}</Trans>
                </span>
              </p>
              <p className="list-item-meta">
                <span>{offer.town}</span>
                {away(offer.distanceMiles) && <span>{away(offer.distanceMiles)}</span>}
              </p>
              <div className="actions">
                <button
                  type="button"
                  className="button button-primary"
                  disabled={taking !== null}
                  aria-describedby={titleId}
                  onClick={() => void take(offer)}
                >
                  {taking === offer.bookingId ? t`Taking...` : t`Take this visit`}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
