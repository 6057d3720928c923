// /settings, "Payment method": the organizer's own saved card (payments.cards). She saves one card
// (Stripe Elements confirms a SetupIntent; the offline test gateway has a plain card form), reads
// its brand, last 4 digits and expiry, chooses whether one-off bookings are charged to it too, and
// removes it. Nobody else ever reads it: the server answers for the viewer only.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { Stripe, StripeElements } from "@stripe/stripe-js";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { CheckboxOption, InputField } from "../components/Field";
import { ApiError, errorMessage, isUnauthorizedError } from "../lib/api";
import type { components } from "../lib/api-schema";
import { mountQueryIsland, useApiWrite } from "../lib/query";
import { toast } from "../lib/toast";

type PaymentMethod = components["schemas"]["PaymentMethod"];

function SavedCardView({ method, onChange }: { method: PaymentMethod; onChange: (m: PaymentMethod | null) => void }) {
  const write = useApiWrite();
  const [busy, setBusy] = useState(false);
  const card = method.card;
  if (!card) return null;

  async function remove() {
    setBusy(true);
    try {
      await write.delete("/api/payment-method");
      onChange(null);
      toast({ title: t`Your card was removed` });
    } catch (err) {
      if (!isUnauthorizedError(err)) toast({ title: t`Could not remove your card`, description: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  async function choose(every: boolean) {
    try {
      onChange(await write.patch<PaymentMethod>("/api/payment-method", { chargeEveryBooking: every }));
    } catch (err) {
      if (!isUnauthorizedError(err)) toast({ title: t`Could not save your choice`, description: errorMessage(err) });
    }
  }

  const expiry = card.expMonth && card.expYear ? `${String(card.expMonth).padStart(2, "0")}/${card.expYear}` : "";
  return (
    <div data-testid="saved-card">
      <p className="lead">
        <strong>{card.label}</strong>
        {expiry && (
          <span className="muted">
            {" · "}
            <Trans>expires {expiry}</Trans>
          </span>
        )}
      </p>
      <CheckboxOption
        id="charge-every-booking"
        label={t`Charge my saved card automatically for one-off bookings too`}
        description={t`Each visit of a series is always charged to this card when the helper accepts.`}
        checked={method.chargeEveryBooking}
        onChange={(e) => void choose(e.target.checked)}
      />
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={() => void remove()} disabled={busy}>
          {busy ? t`Removing...` : t`Remove card`}
        </button>
      </div>
    </div>
  );
}

function TestCardForm({ onSaved }: { onSaved: (m: PaymentMethod) => void }) {
  const write = useApiWrite();
  const [number, setNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const [errors, setErrors] = useState<{ cardNumber?: string; expiry?: string; other?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      onSaved(await write.post<PaymentMethod>("/api/payment-method/test", { cardNumber: number, expiry }));
      toast({ title: t`Your card was saved` });
    } catch (err) {
      if (isUnauthorizedError(err)) return;
      const fields = err instanceof ApiError ? err.fieldErrors : {};
      const found = { cardNumber: fields.cardNumber?.[0], expiry: fields.expiry?.[0] };
      setErrors(found.cardNumber || found.expiry ? found : { other: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="test-card-form">
      <p className="muted">
        <Trans>Test mode: use card 4242 4242 4242 4242 and any future date.</Trans>
      </p>
      <InputField
        id="saved-card-number"
        label={t`Card number`}
        inputMode="numeric"
        autoComplete="cc-number"
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        required
        error={errors.cardNumber}
      />
      <InputField
        id="saved-card-expiry"
        label={t`Expiry date (MM/YY)`}
        autoComplete="cc-exp"
        value={expiry}
        onChange={(e) => setExpiry(e.target.value)}
        required
        error={errors.expiry}
      />
      {errors.other && (
        <p className="field-error" role="alert">
          {errors.other}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? t`Saving...` : t`Save card`}
      </button>
    </form>
  );
}

function StripeCardForm({ publishableKey, onSaved }: { publishableKey: string; onSaved: (m: PaymentMethod) => void }) {
  const write = useApiWrite();
  const mountRef = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [elements, setElements] = useState<StripeElements | null>(null);
  const [setupId, setSetupId] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let unmount: (() => void) | undefined;
    write
      .post<{ clientSecret: string; setupIntentId: string }>("/api/payment-method/setup", {})
      .then(async ({ clientSecret, setupIntentId }) => {
        const { loadStripe } = await import("@stripe/stripe-js/pure");
        const loaded = await loadStripe(publishableKey);
        if (cancelled || !loaded || !mountRef.current) return;
        const els = loaded.elements({
          clientSecret,
          appearance: { theme: "stripe", variables: { fontSizeBase: "18px" } },
        });
        const element = els.create("payment");
        element.mount(mountRef.current);
        unmount = () => element.destroy();
        setStripe(loaded);
        setElements(els);
        setSetupId(setupIntentId);
      })
      .catch((err: unknown) => {
        if (!cancelled && !isUnauthorizedError(err)) setError(errorMessage(err));
      });
    return () => {
      cancelled = true;
      unmount?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one setup per form
  }, [publishableKey]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    setError("");
    try {
      const result = await stripe.confirmSetup({
        elements,
        confirmParams: { return_url: `${window.location.origin}/settings#payment-method` },
        redirect: "if_required",
      });
      if (result.error) {
        setError(result.error.message ?? t`Your card could not be saved.`);
        return;
      }
      // The server asks Stripe which card was saved; the browser's word is not enough.
      onSaved(await write.post<PaymentMethod>("/api/payment-method/setup/finish", { setupIntentId: setupId }));
      toast({ title: t`Your card was saved` });
    } catch (err) {
      if (!isUnauthorizedError(err)) setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} data-testid="stripe-card-form">
      <div ref={mountRef} className="stripe-element" />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={busy || !elements}>
        {busy ? t`Saving...` : t`Save card`}
      </button>
    </form>
  );
}

function PaymentMethodCard({ initial }: { initial: PaymentMethod }) {
  const [method, setMethod] = useState<PaymentMethod>(initial);
  if (method.card) {
    return (
      <SavedCardView
        method={method}
        onChange={(next) => setMethod(next ?? { ...method, card: null, chargeEveryBooking: false })}
      />
    );
  }
  return method.gateway === "stripe" ? (
    <StripeCardForm publishableKey={method.publishableKey} onSaved={setMethod} />
  ) : (
    <TestCardForm onSaved={setMethod} />
  );
}

mountQueryIsland(PaymentMethodCard, "payment-method");
