// The payment page (/checkout/{bookingId}, spec "Payment page"): "Booking Not Found",
// "Payment Complete!", "Preparing payment..." or the form with the booking summary and the
// security notes. With Stripe keys the form is Stripe's Payment Element (@stripe/stripe-js,
// fetched only then: the offline test gateway's plain card form never loads Stripe.js).
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { Stripe, StripeElements } from "@stripe/stripe-js";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { InputField } from "../components/Field";
import { ApiError, errorMessage, isUnauthorizedError } from "../lib/api";
import { useSchemaForm } from "../lib/forms";
import { formatDate, formatMoney } from "../lib/format";
import { mountQueryIsland, useApiWrite, type SessionMeta } from "../lib/query";
import { RULES } from "../lib/rules.generated";
import { cardSchema, EXPIRY_MAX_LENGTH, tidyExpiry, type CardValues } from "../lib/schemas/card";
import { toast } from "../lib/toast";

interface CheckoutBooking {
  id: number;
  title: string;
  providerName: string;
  scheduledDate: string;
  scheduledTime: string;
  scheduledTimeLabel: string;
  duration: number;
  totalAmount: string;
  status: string;
  paymentStatus: string;
  payable: boolean;
  /** Whether the viewer organizes the recipient's care circle (organizers pay; members see the status). */
  canPay: boolean;
  /** Whom the visit is for. */
  recipient: { id: number; firstName: string; lastName: string };
  /** A visit of a series: "This is visit 1 of 4 in a weekly series; each visit is paid separately." */
  seriesNote: string;
  /** The visit's tip, paid on its own (payments.tips); organizers only, null without one. */
  tip: { amount: string } | null;
  /** A saved card's automatic charge, as the viewer may read it ("Will be charged to Visa •••• 4242
   * when confirmed", "We could not charge ..."); "" when there is none. */
  autoChargeNote: string;
}

interface CheckoutProps {
  bookingId: string;
  booking: CheckoutBooking | null;
  backend: "stripe" | "test";
  publishableKey: string;
}

type Phase = "preparing" | "prepare-failed" | "form" | "complete";

// Read when shown, in the page's language (lingui/t-call-in-function).
const createFailed = () => t`Failed to create payment. Please try again.`;
const paidTitle = () => t`Payment Successful`;
const paidText = () => t`Thank you for your payment! Your booking is confirmed.`;
/** A lost session signs in again through /api/login (spec section 8); the page's writes carry it. */
const SESSION: SessionMeta = { loginTarget: "/api/login" };

function paymentFailed(message: string): void {
  toast({ title: t`Payment Failed`, description: message, variant: "destructive" });
}

function paymentSucceeded(): void {
  toast({ title: paidTitle(), description: paidText() });
}

function BookingSummary({ booking }: { booking: CheckoutBooking }) {
  return (
    <section className="card checkout-summary" aria-labelledby="summary-heading">
      <h2 id="summary-heading">
        <Trans>Booking Summary</Trans>
      </h2>
      <dl className="summary-list" data-testid="booking-summary">
        <div>
          <dt>
            <Trans>Service</Trans>
          </dt>
          <dd>{booking.title}</dd>
        </div>
        <div>
          <dt>
            <Trans>For</Trans>
          </dt>
          <dd data-testid="checkout-recipient">
            {`${booking.recipient.firstName} ${booking.recipient.lastName}`.trim()}
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Provider</Trans>
          </dt>
          <dd>{booking.providerName}</dd>
        </div>
        <div>
          <dt>
            <Trans>Date</Trans>
          </dt>
          <dd>{formatDate(booking.scheduledDate)}</dd>
        </div>
        <div>
          <dt>
            <Trans>Time</Trans>
          </dt>
          <dd>{booking.scheduledTimeLabel}</dd>
        </div>
        <div>
          <dt>
            <Trans>Duration</Trans>
          </dt>
          <dd>{plural(booking.duration, { one: "# minute", other: "# minutes" })}</dd>
        </div>
        <div className="summary-total">
          <dt>
            <Trans>Total</Trans>
          </dt>
          <dd data-testid="summary-total">{formatMoney(booking.totalAmount)}</dd>
        </div>
      </dl>
      {booking.seriesNote && !booking.autoChargeNote && (
        <p className="notice" role="note" data-testid="series-pay-note">
          {booking.seriesNote}
        </p>
      )}
      {booking.autoChargeNote && (
        <p className="notice" role="note" data-testid="auto-charge-note">
          {booking.autoChargeNote}
        </p>
      )}
    </section>
  );
}

function SecurityNotes() {
  const windowHours = RULES.cancellation.WINDOW_HOURS;
  return (
    <section className="card checkout-security" aria-labelledby="security-heading">
      <h2 id="security-heading">
        <Trans>Secure Payment</Trans>
      </h2>
      <ul className="security-notes">
        <li>
          <Trans>Your payment is encrypted and processed securely through the platform.</Trans>
        </li>
        <li>
          <Trans>Kindly never stores your full card number.</Trans>
        </li>
        <li>
          <Trans>You are only charged this booking's total.</Trans>
        </li>
        <li>
          <Trans>Cancel at least {windowHours} hours before your visit for a full refund.</Trans>
        </li>
      </ul>
    </section>
  );
}

function SubmitButton({ processing, amount, disabled }: { processing: boolean; amount: string; disabled?: boolean }) {
  const money = formatMoney(amount);
  return (
    <button
      type="submit"
      className="button button-primary button-block"
      disabled={processing || disabled}
      aria-busy={processing}
    >
      {processing ? t`Processing Payment...` : t`Pay ${money}`}
    </button>
  );
}

// ---------------------------------------------------------------- offline test gateway

const expiryHint = () => t`MM / YY, for example 04 / 28`;
const CARD_FIELDS = ["cardNumber", "expiry", "cvc"] as const;
const NO_CARD: CardValues = { cardNumber: "", expiry: "", cvc: "" };

function TestCardForm({ booking, onPaid }: { booking: CheckoutBooking; onPaid: () => void }) {
  // The fields are checked on Pay; a message stays until the next Pay (typing an expiry takes its
  // message away), and the focus stays where it is.
  const {
    form,
    values: { cardNumber, expiry, cvc },
    errors,
    set,
    handleSubmit,
  } = useSchemaForm<CardValues>({ schema: cardSchema, defaultValues: NO_CARD, onChange: "none" });
  const [failure, setFailure] = useState("");
  const [processing, setProcessing] = useState(false);
  const write = useApiWrite([], SESSION);

  const pay = async (values: CardValues) => {
    setProcessing(true);
    try {
      await write.post("/api/payments/test/confirm", { bookingId: booking.id, ...values });
      paymentSucceeded();
      onPaid();
    } catch (error) {
      if (isUnauthorizedError(error)) return; // lib/query's
      const message = errorMessage(error);
      if (error instanceof ApiError && error.status === 400) {
        for (const name of CARD_FIELDS) {
          const fieldMessage = error.fieldErrors[name]?.[0];
          if (fieldMessage) form.setError(name, { type: "server", message: fieldMessage });
        }
      } else {
        setFailure(message);
      }
      paymentFailed(message);
    } finally {
      setProcessing(false);
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    setFailure("");
    void handleSubmit(pay)(event);
  };

  return (
    <form className="card checkout-form" onSubmit={submit} noValidate aria-labelledby="card-heading">
      <h2 id="card-heading">
        <Trans>Card Details</Trans>
      </h2>
      {/* Above the fields, not in the aside: on a phone the aside comes after the Pay button. */}
      <p className="test-mode-note" data-testid="test-card-hint">
        <Trans>
          Test mode: no real money is taken. Card 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.
        </Trans>
      </p>
      <InputField
        id="card-number"
        label={t`Card number`}
        required
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        value={cardNumber}
        onChange={(e) => set("cardNumber", e.target.value)}
        error={errors.cardNumber}
        disabled={processing}
      />
      <div className="field-row">
        <InputField
          id="card-expiry"
          label={t`Expiry date`}
          hint={expiryHint()}
          required
          autoComplete="cc-exp"
          placeholder={t`MM / YY`}
          maxLength={EXPIRY_MAX_LENGTH}
          value={expiry}
          onChange={(e) => {
            set("expiry", e.target.value);
            if (errors.expiry) form.clearErrors("expiry");
          }}
          onBlur={() => set("expiry", tidyExpiry(form.getValues("expiry")))}
          error={errors.expiry}
          disabled={processing}
        />
        <InputField
          id="card-cvc"
          label={t`Security code (CVC)`}
          required
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          value={cvc}
          onChange={(e) => set("cvc", e.target.value)}
          error={errors.cvc}
          disabled={processing}
        />
      </div>
      {failure && (
        <p className="form-error" role="alert" data-testid="payment-error">
          {failure}
        </p>
      )}
      <SubmitButton processing={processing} amount={booking.totalAmount} />
    </form>
  );
}

// ---------------------------------------------------------------- Stripe Elements

function StripeForm({
  booking,
  clientSecret,
  publishableKey,
  onPaid,
}: {
  booking: CheckoutBooking;
  clientSecret: string;
  publishableKey: string;
  onPaid: () => void;
}) {
  const mountRef = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [elements, setElements] = useState<StripeElements | null>(null);
  const [loadError, setLoadError] = useState("");
  const [failure, setFailure] = useState("");
  const [notice, setNotice] = useState("");
  const [processing, setProcessing] = useState(false);
  const write = useApiWrite([], SESSION);

  useEffect(() => {
    let cancelled = false;
    let unmount: (() => void) | undefined;
    // The "pure" entry adds Stripe's script to the page only when loadStripe() is called.
    import("@stripe/stripe-js/pure")
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .then((loaded) => {
        if (cancelled || !loaded || !mountRef.current) {
          if (!loaded && !cancelled) setLoadError(createFailed());
          return;
        }
        const els = loaded.elements({
          clientSecret,
          appearance: { theme: "stripe", variables: { fontSizeBase: "18px" } },
        });
        const paymentElement = els.create("payment");
        paymentElement.mount(mountRef.current);
        unmount = () => paymentElement.destroy();
        setStripe(loaded);
        setElements(els);
      })
      .catch(() => {
        if (!cancelled) setLoadError(createFailed());
      });
    return () => {
      cancelled = true;
      unmount?.();
    };
  }, [clientSecret, publishableKey]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setProcessing(true);
    setFailure("");
    setNotice("");
    try {
      const result = await stripe.confirmPayment({
        elements,
        // Redirect-based methods come back to the site root (spec section 7).
        confirmParams: { return_url: `${window.location.origin}/` },
        redirect: "if_required",
      });
      if (result.error) {
        const message = result.error.message ?? t`Your payment could not be completed.`;
        setFailure(message);
        paymentFailed(message);
      } else if (result.paymentIntent.status === "succeeded") {
        // The server checks with Stripe itself, so the booking shows confirmed without waiting
        // for the webhook (which still arrives and changes nothing more).
        await write.post("/api/payments/stripe/sync", { bookingId: booking.id }).catch(() => undefined);
        paymentSucceeded();
        onPaid();
      } else {
        setNotice(t`Your payment is being processed. We'll confirm your booking as soon as it completes.`);
      }
    } finally {
      setProcessing(false);
    }
  };

  return (
    <form className="card checkout-form" onSubmit={submit} aria-labelledby="card-heading">
      <h2 id="card-heading">
        <Trans>Payment Details</Trans>
      </h2>
      <div ref={mountRef} className="stripe-element" />
      {!elements && !loadError && (
        <p className="muted" role="status">
          <Trans>Preparing payment...</Trans>
        </p>
      )}
      {loadError && (
        <p className="form-error" role="alert">
          {loadError}
        </p>
      )}
      {failure && (
        <p className="form-error" role="alert" data-testid="payment-error">
          {failure}
        </p>
      )}
      {notice && <p role="status">{notice}</p>}
      <SubmitButton processing={processing} amount={booking.totalAmount} disabled={!elements} />
    </form>
  );
}

// ---------------------------------------------------------------- page

function NotFound() {
  return (
    <section className="card narrow-card checkout-state" aria-labelledby="state-heading">
      <h1 id="state-heading">
        <Trans>Booking Not Found</Trans>
      </h1>
      <p>
        <Trans>We couldn't find this booking. It may belong to another account, or the link may be wrong.</Trans>
      </p>
      <a className="button button-primary" href="/">
        <Trans>Back to Dashboard</Trans>
      </a>
    </section>
  );
}

function Complete({ booking }: { booking: CheckoutBooking }) {
  const paid = formatMoney(booking.totalAmount);
  const helper = booking.providerName;
  const tip = formatMoney(booking.tip?.amount);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The Pay button sat low on a phone's page: the confirmation starts at the top, in view.
    window.scrollTo({ top: 0 });
    headingRef.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div className="checkout-layout">
      <section className="card checkout-state" aria-labelledby="state-heading" data-testid="payment-complete">
        <h1 id="state-heading" ref={headingRef} tabIndex={-1}>
          <Trans>Payment Complete!</Trans>
        </h1>
        <p>{paidText()}</p>
        {/* The total, here at the top: the "Payment Successful" toast sits over the bottom of a
            phone's screen, where the summary's total is. */}
        <p data-testid="paid-amount">
          <Trans>
            You paid <strong>{paid}</strong>.
          </Trans>
        </p>
        {booking.tip && (
          <p data-testid="paid-tip">
            <Trans>
              Tip for {helper}, paid on its own: <strong>{tip}</strong>. All of it goes to {helper}.
            </Trans>
          </p>
        )}
        <a className="button button-primary" href="/">
          <Trans>Back to Dashboard</Trans>
        </a>
      </section>
      <BookingSummary booking={booking} />
    </div>
  );
}

function Unavailable({ booking }: { booking: CheckoutBooking }) {
  const reason = !booking.canPay
    ? booking.paymentStatus === "paid"
      ? t`This booking has been paid. Thank you.`
      : t`An organizer of this care circle pays for visits. You can see the payment's status here.`
    : booking.status === "cancelled"
      ? t`This booking was cancelled, so there is nothing to pay.`
      : booking.paymentStatus === "refunded"
        ? t`The payment for this booking was refunded.`
        : t`This booking cannot be paid right now.`;
  return (
    <div className="checkout-layout">
      <section className="card checkout-state" aria-labelledby="state-heading">
        <h1 id="state-heading">
          <Trans>Payment Not Available</Trans>
        </h1>
        <p>{reason}</p>
        <a className="button button-primary" href="/">
          <Trans>Back to Dashboard</Trans>
        </a>
      </section>
      <BookingSummary booking={booking} />
    </div>
  );
}

function Checkout({ booking, backend, publishableKey }: CheckoutProps) {
  const paid = booking?.paymentStatus === "paid";
  const [phase, setPhase] = useState<Phase>(paid ? "complete" : "preparing");
  const [clientSecret, setClientSecret] = useState("");
  const started = useRef(false);
  const { post } = useApiWrite([], SESSION);

  const prepare = useCallback(async () => {
    if (!booking) return;
    setPhase("preparing");
    try {
      const reply = await post<{ clientSecret: string }>("/api/create-payment-intent", {
        amount: Number(booking.totalAmount),
        bookingId: booking.id,
      });
      setClientSecret(reply.clientSecret);
      setPhase("form");
    } catch (error) {
      if (isUnauthorizedError(error)) return; // lib/query's
      toast({ title: t`Error`, description: createFailed(), variant: "destructive" });
      setPhase("prepare-failed");
    }
  }, [booking, post]);

  useEffect(() => {
    // paymentStatus pending (or failed, to try again) creates the payment intent on load.
    if (!booking || paid || !booking.payable || started.current) return;
    started.current = true;
    void prepare();
  }, [booking, paid, prepare]);

  if (!booking) return <NotFound />;
  if (phase === "complete") return <Complete booking={booking} />;
  if (!booking.payable) return <Unavailable booking={booking} />;

  const onPaid = () => setPhase("complete");
  return (
    <div>
      <header className="page-header">
        <h1>
          <Trans>Complete Your Payment</Trans>
        </h1>
        <p className="lead">
          <Trans>Pay securely for your booking. Your booking is confirmed as soon as the payment succeeds.</Trans>
        </p>
      </header>
      <div className="checkout-layout">
        <div className="checkout-main">
          {phase === "preparing" && (
            <section className="card checkout-state" aria-live="polite">
              <p role="status" className="preparing">
                <span className="spinner" aria-hidden="true" /> <Trans>Preparing payment...</Trans>
              </p>
            </section>
          )}
          {phase === "prepare-failed" && (
            <section className="card checkout-state">
              <p className="form-error" role="alert">
                {createFailed()}
              </p>
              <button type="button" className="button button-primary" onClick={() => void prepare()}>
                <Trans>Try Again</Trans>
              </button>
            </section>
          )}
          {phase === "form" &&
            (backend === "stripe" ? (
              <StripeForm
                booking={booking}
                clientSecret={clientSecret}
                publishableKey={publishableKey}
                onPaid={onPaid}
              />
            ) : (
              <TestCardForm booking={booking} onPaid={onPaid} />
            ))}
        </div>
        <div className="checkout-aside">
          <BookingSummary booking={booking} />
          <SecurityNotes />
        </div>
      </div>
    </div>
  );
}

mountQueryIsland(Checkout, "checkout");
