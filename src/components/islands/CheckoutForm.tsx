// The card payment at /checkout (spec 2 Checkout, spec 4 states, spec 8 toasts):
// loading (the server makes a PaymentIntent for the service's stored price)
// -> ready (Stripe's Payment Element is on screen) -> paying -> success or
// failure. The booking shows as paid only when Stripe's webhook reaches the
// server; this form only tells the visitor what Stripe told the browser.
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useEffect, useMemo, useState, type SubmitEvent } from 'react';
import { postJson } from '#lib/client/post-json.ts';
import { afterToastShown, toast } from '#lib/client/toasts.ts';

interface Props {
  serviceId: number;
  /** The price as the page showed it, in dollars ("250.00"); the server charges its own stored price. */
  amount: string;
  /** "$250.00", for the button. */
  priceLabel: string;
  publishableKey: string;
  loginUrl: string;
}

type Phase = 'loading' | 'ready' | 'paying' | 'success' | 'failure';

const UNAUTHORIZED = { title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' } as const;
const INIT_FAILED = { title: 'Booking Error', description: 'Failed to initialize payment. Please try again.', variant: 'destructive' } as const;

export default function CheckoutForm({ serviceId, amount, priceLabel, publishableKey, loginUrl }: Props) {
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const stripePromise = useMemo<Promise<Stripe | null>>(() => loadStripe(publishableKey), [publishableKey]);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const response = await postJson('/api/create-payment-intent', { serviceId, amount: Number(amount) });
        if (cancelled) return;
        if (response.status === 401) {
          toast(UNAUTHORIZED);
          afterToastShown(500, () => window.location.assign(loginUrl));
          return;
        }
        const body = (await response.json().catch(() => ({}))) as { clientSecret?: string };
        if (!response.ok || !body.clientSecret) throw new Error(`${response.status}`);
        setClientSecret(body.clientSecret);
      } catch {
        if (cancelled) return;
        toast(INIT_FAILED);
        afterToastShown(1500, () => window.location.assign('/services'));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [serviceId, amount, loginUrl]);

  if (!clientSecret) {
    return (
      <div data-checkout-phase="loading" aria-busy="true" className="flex flex-col gap-4">
        <div className="h-40 animate-pulse rounded-lg bg-stone/60" />
        <button type="button" className="btn-primary btn-lg w-full" disabled>
          Pay {priceLabel}
        </button>
        <p role="status" className="sr-only">
          Preparing the secure payment form…
        </p>
      </div>
    );
  }
  return (
    <Elements stripe={stripePromise} options={{ clientSecret, appearance: { theme: 'stripe' } }}>
      <PaymentForm priceLabel={priceLabel} />
    </Elements>
  );
}

function PaymentForm({ priceLabel }: { priceLabel: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [phase, setPhase] = useState<Phase>('loading');

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || phase !== 'ready') return;
    setPhase('paying');
    try {
      const result = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: `${window.location.origin}/checkout?success=true` },
        redirect: 'if_required',
      });
      if (result.error) {
        setPhase('ready');
        toast({ title: 'Payment Failed', description: result.error.message ?? 'Your card was not charged.', variant: 'destructive' });
        return;
      }
      setPhase('success');
      toast({ title: 'Payment Successful', description: 'Thank you for your purchase!' });
      afterToastShown(2500, () => window.location.assign('/?payment=success'));
    } catch {
      setPhase('ready');
      toast({ title: 'Payment Error', description: 'An unexpected error occurred', variant: 'destructive' });
    }
  }

  const disabled = !stripe || !elements || phase !== 'ready';
  return (
    <form onSubmit={onSubmit} data-checkout-phase={phase} aria-busy={phase === 'loading' || phase === 'paying'} className="flex flex-col gap-4">
      <PaymentElement onReady={() => setPhase((p) => (p === 'loading' ? 'ready' : p))} onLoadError={() => setPhase('failure')} />
      {phase === 'failure' && (
        <p role="alert" className="field-error">
          The payment form could not load. Reload the page or call us to pay.
        </p>
      )}
      <button type="submit" className="btn-primary btn-lg w-full" disabled={disabled}>
        {phase === 'paying' ? 'Processing…' : phase === 'success' ? 'Paid' : `Pay ${priceLabel}`}
      </button>
      <p role="status" className="sr-only">
        {phase === 'paying' ? 'Processing your payment…' : phase === 'success' ? 'Payment successful.' : ''}
      </p>
    </form>
  );
}
