// A visit whose helper left (bookings.services.replacement), on its booking card: "Finding a
// replacement", then "Replacement confirmed: Ana will arrive at 2:00 PM". Past the search's deadline
// the organizers choose in one tap: a full refund, or keep waiting.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { ApiError, isUnauthorizedError } from "../../lib/api";
import { formatMoney } from "../../lib/format";
import { useApiWrite } from "../../lib/query";
import { toast } from "../../lib/toast";
import type { Booking } from "../../lib/types";
import { SESSION } from "./common";

export function ReplacementNote({ booking, onChanged }: { booking: Booking; onChanged: () => void }) {
  const replacement = booking.replacement;
  const { post } = useApiWrite([], SESSION);
  const [busy, setBusy] = useState(false);
  if (!replacement) return null;
  const seeking = replacement.state === "seeking" || replacement.state === "unfilled";

  async function choose(action: "refund" | "wait") {
    if (busy) return;
    setBusy(true);
    try {
      await post(`/api/bookings/${booking.id}/replacement/${action}`);
      toast(
        action === "refund"
          ? { title: t`Visit cancelled`, description: t`Any payment comes back to your card in full.` }
          : { title: t`We keep looking`, description: t`We will tell you as soon as a helper takes the visit.` },
      );
    } catch (err) {
      if (!isUnauthorizedError(err)) {
        const message = err instanceof ApiError ? err.serverMessage : "";
        toast({ title: t`That did not work`, description: message || t`Please try again.`, variant: "destructive" });
      }
    } finally {
      setBusy(false);
      onChanged();
    }
  }

  const paid = Number(booking.cancelRefund) > 0;
  const refund = formatMoney(Number(booking.cancelRefund));
  return (
    <div className="replacement" data-testid="replacement">
      <p className="notice notice-inline" role="status" data-testid="replacement-note">
        <strong>{replacement.note}</strong>
        {seeking && " "}
        {seeking && (
          <Trans>Your helper cannot come. We are asking other helpers near you and will tell you who is coming.</Trans>
        )}
      </p>
      {replacement.askFamily && (
        <p data-testid="replacement-question">
          {paid ? (
            <Trans>
              Nobody has taken the visit yet. You can keep waiting, or cancel it and get {refund} back in full.
            </Trans>
          ) : (
            <Trans>Nobody has taken the visit yet. You can keep waiting, or cancel it.</Trans>
          )}
        </p>
      )}
      {seeking && replacement.canRefund && (
        <div className="actions">
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => void choose("refund")}
            data-testid="replacement-refund"
          >
            {paid ? t`Cancel with a full refund` : t`Cancel the visit`}
          </button>
          {replacement.askFamily && (
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() => void choose("wait")}
              data-testid="replacement-wait"
            >
              <Trans>Keep waiting</Trans>
            </button>
          )}
        </div>
      )}
    </div>
  );
}
