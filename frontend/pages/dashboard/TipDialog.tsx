// "Add a tip" for 72 hours after the helper's check-out (payments.tips): a suggested 10/15/20 % of
// the visit or an amount, all of it to the helper. The offline test gateway charges it at once;
// with Stripe the tip's own intent is confirmed here with Stripe's Payment Element.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { Stripe, StripeElements } from "@stripe/stripe-js";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Dialog, DialogClose } from "../../components/Dialog";
import { FieldSet, InputField, RadioOption } from "../../components/Field";
import { api, ApiError, errorMessage, isUnauthorizedError } from "../../lib/api";
import { formatDateTime, formatMoney } from "../../lib/format";
import { useApiWrite } from "../../lib/query";
import { toast } from "../../lib/toast";
import type { Booking, Tip, TipOffer } from "../../lib/types";
import { bookingTitle, SESSION } from "./common";

/** Mirrors payments.tips.tip_window_end: the offer is shown for 72 hours after the check-out. */
export const TIP_WINDOW_MS = 72 * 60 * 60 * 1000;

export function tipWindowOpen(booking: Booking, now = Date.now()): boolean {
  return (
    booking.status === "completed" &&
    booking.paymentStatus === "paid" &&
    !!booking.checkedOutAt &&
    now - Date.parse(booking.checkedOutAt) <= TIP_WINDOW_MS
  );
}

type Choice = "10" | "15" | "20" | "other";

function thanked(offer: TipOffer, amount: number): void {
  const money = formatMoney(amount);
  const helper = offer.helperName;
  toast({
    title: t`Thank you`,
    description: t`Your tip of ${money} goes to ${helper} in full.`,
  });
}

function thankYouFor(booking: Booking): string {
  const title = bookingTitle(booking);
  return t`A thank-you for the visit "${title}".`;
}

function percentOf(percent: number, visit: TipOffer["visitAmount"]): string {
  const money = formatMoney(visit);
  return t`${percent}% of the visit's ${money}`;
}

function fromTo(min: TipOffer["min"], max: TipOffer["max"]): string {
  const low = formatMoney(min);
  const high = formatMoney(max);
  return t`From ${low} to ${high}`;
}

export function TipDialog({ booking, onClose }: { booking: Booking | null; onClose: () => void }) {
  const path = booking ? `/api/bookings/${booking.id}/tip` : "";
  const offer = useQuery({
    queryKey: [path],
    queryFn: () => api.get<TipOffer>(path),
    enabled: booking !== null,
    meta: SESSION,
  });
  const [choice, setChoice] = useState<Choice>("15");
  const [other, setOther] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [paying, setPaying] = useState<Tip | null>(null);
  const { post } = useApiWrite([[path]], SESSION);
  useEffect(() => {
    setChoice("15");
    setOther("");
    setError("");
    setBusy(false);
    setPaying(null);
  }, [booking?.id]);

  const data = offer.data;
  const tipGiven = formatMoney(data?.tip?.amount);
  const until = data?.until ? formatDateTime(data.until) : "";
  const lastError = data?.tip?.error;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!booking || !data) return;
    if (choice === "other" && !other.trim()) {
      setError(t`Type the tip in dollars and cents, for example 10.00.`);
      document.getElementById("tip-other")?.focus();
      return;
    }
    setBusy(true);
    setError("");
    const body = choice === "other" ? { amount: other.trim() } : { percent: Number(choice) };
    try {
      const tip = await post<Tip>(path, body);
      if (tip.state === "pending" || tip.state === "on_its_way") {
        thanked(data, tip.amount);
        onClose();
      } else {
        setPaying(tip); // Stripe: the card is asked for next
      }
    } catch (err) {
      if (isUnauthorizedError(err)) return;
      const fields = err instanceof ApiError ? err.fieldErrors : {};
      setError(fields.amount?.[0] ?? fields.percent?.[0] ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const name = data?.helperName ?? "your helper";
  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t`Add a tip`}
      description={booking ? thankYouFor(booking) : undefined}
      testId="tip-dialog"
    >
      {offer.isPending && (
        <p role="status">
          <Trans>Loading...</Trans>
        </p>
      )}
      {offer.error && !isUnauthorizedError(offer.error) && <p role="alert">{errorMessage(offer.error)}</p>}
      {data?.tip && (data.tip.state === "pending" || data.tip.state === "on_its_way") && (
        <p data-testid="tip-given">
          <Trans>
            You added a tip of {tipGiven}. All of it goes to {name}. Thank you.
          </Trans>
        </p>
      )}
      {data && !data.canAdd && !data.tip && (
        <p>
          <Trans>Tips can be added for 72 hours after the visit. That time is over for this visit.</Trans>
        </p>
      )}
      {data?.canAdd && !paying && (
        <form onSubmit={submit} noValidate>
          <p>
            {until ? (
              <Trans>
                All of your tip goes to {name}; Kindly keeps nothing. You can add it until {until}.
              </Trans>
            ) : (
              <Trans>
                All of your tip goes to {name}; Kindly keeps nothing. You can add it until 72 hours after the visit.
              </Trans>
            )}
          </p>
          {lastError && (
            <p className="form-error">
              <Trans>Your last try did not go through: {lastError}</Trans>
            </p>
          )}
          <FieldSet id="tip-choice" legend={t`Your tip`} error={error || undefined}>
            {data.suggestions.map((s) => (
              <RadioOption
                key={s.percent}
                id={`tip-${s.percent}`}
                name="tip"
                value={String(s.percent)}
                checked={choice === String(s.percent)}
                onChange={() => setChoice(String(s.percent) as Choice)}
                label={formatMoney(s.amount)}
                description={percentOf(s.percent, data.visitAmount)}
              />
            ))}
            <RadioOption
              id="tip-other-choice"
              name="tip"
              value="other"
              checked={choice === "other"}
              onChange={() => setChoice("other")}
              label={t`Another amount`}
              description={fromTo(data.min, data.max)}
            />
          </FieldSet>
          {choice === "other" && (
            <InputField
              id="tip-other"
              label={t`Amount in dollars`}
              inputMode="decimal"
              autoComplete="off"
              value={other}
              onChange={(e) => setOther(e.currentTarget.value)}
            />
          )}
          <div className="dialog-footer">
            <DialogClose>
              <Trans>Not now</Trans>
            </DialogClose>
            <button type="submit" className="button button-primary" disabled={busy} data-testid="tip-submit">
              {busy ? t`Adding...` : t`Add the tip`}
            </button>
          </div>
        </form>
      )}
      {data && paying && (
        <StripeTipForm
          tip={paying}
          publishableKey={data.publishableKey}
          onPaid={() => {
            thanked(data, paying.amount);
            onClose();
          }}
        />
      )}
    </Dialog>
  );
}

/** The card for a tip's own intent (Stripe's Payment Element); payment_intent.succeeded settles it. */
function StripeTipForm({ tip, publishableKey, onPaid }: { tip: Tip; publishableKey: string; onPaid: () => void }) {
  const mountRef = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [elements, setElements] = useState<StripeElements | null>(null);
  const [failure, setFailure] = useState("");
  const [processing, setProcessing] = useState(false);
  const amount = formatMoney(tip.amount);

  useEffect(() => {
    let cancelled = false;
    let unmount: (() => void) | undefined;
    import("@stripe/stripe-js/pure")
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .then((loaded) => {
        if (cancelled || !loaded || !mountRef.current) return;
        const els = loaded.elements({
          clientSecret: tip.clientSecret,
          appearance: { theme: "stripe", variables: { fontSizeBase: "18px" } },
        });
        const element = els.create("payment");
        element.mount(mountRef.current);
        unmount = () => element.destroy();
        setStripe(loaded);
        setElements(els);
      })
      .catch(() => !cancelled && setFailure(t`We could not start the tip just now. Please try again.`));
    return () => {
      cancelled = true;
      unmount?.();
    };
  }, [tip.clientSecret, publishableKey]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setProcessing(true);
    setFailure("");
    try {
      const result = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: `${window.location.origin}/dashboard` },
        redirect: "if_required",
      });
      if (result.error) setFailure(result.error.message ?? t`Your card could not be charged.`);
      else onPaid();
    } finally {
      setProcessing(false);
    }
  };

  return (
    <form onSubmit={submit} aria-label={t`Card for the tip`}>
      <div ref={mountRef} className="stripe-element" />
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <div className="dialog-footer">
        <DialogClose>
          <Trans>Not now</Trans>
        </DialogClose>
        <button type="submit" className="button button-primary" disabled={!elements || processing}>
          {processing ? t`Processing...` : t`Pay the tip of ${amount}`}
        </button>
      </div>
    </form>
  );
}
