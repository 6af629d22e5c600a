// The card step of a booking whose spa asks for a card on file or a deposit
// (no-show protection, docs/decisions/0030), on /bookings/secure/{token}:
//   loading (the server makes the SetupIntent, the deposit's PaymentIntent, or
//   hands back a fee the client's bank wants confirmed) -> ready (Stripe's
//   Payment Element, so no card data reaches our server) -> saving ->
//   waiting (Stripe.js said yes; the booking is secured only when Stripe's
//   webhook reaches the server, so the island asks the server until it is) ->
//   done, or failure (what Stripe said, and the button again).
// A fee to confirm needs no card form: the saved card is confirmed with the
// bank (Stripe.js confirmPayment with the saved payment method).
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useEffect, useMemo, useState, type SubmitEvent } from 'react';
import { postJson } from '#lib/client/post-json.ts';

interface Props {
  token: string;
  publishableKey: string;
  /** What the button says: "Save card", "Pay $40.00 deposit", "Confirm $50.00". */
  actionLabel: string;
  /** Where the client goes when it is done: the manage page. */
  doneHref: string;
}

type Step =
  { kind: 'setup' | 'deposit'; clientSecret: string } | { kind: 'authenticate'; clientSecret: string; paymentMethodId: string | null } | { kind: 'done' };

type Phase = 'ready' | 'saving' | 'waiting' | 'done' | 'failure';

const WAIT_MS = 1_500;
const WAIT_TRIES = 40;

export default function SecureBooking({ token, publishableKey, actionLabel, doneHref }: Props) {
  const [step, setStep] = useState<Step | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const stripePromise = useMemo<Promise<Stripe | null>>(() => loadStripe(publishableKey), [publishableKey]);
  const endpoint = `/api/bookings/secure/${token}`;

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const response = await postJson(endpoint, {});
        const body = (await response.json().catch(() => ({}))) as Step & { error?: { message?: string } };
        if (cancelled) return;
        if (!response.ok) throw new Error(body.error?.message ?? 'The card form could not be prepared.');
        setStep(body);
      } catch (error) {
        if (!cancelled) setProblem(error instanceof Error ? error.message : 'The card form could not be prepared.');
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [endpoint]);

  if (problem) {
    return (
      <p role="alert" className="field-error" data-secure-phase="failure">
        {problem} Reload the page to try again.
      </p>
    );
  }
  if (!step) {
    return (
      <div data-secure-phase="loading" aria-busy="true" className="flex flex-col gap-4">
        <div className="h-40 animate-pulse rounded-lg bg-stone/60" />
        <button type="button" className="btn-primary btn-lg w-full" disabled>
          {actionLabel}
        </button>
        <p role="status" className="sr-only">
          Preparing the secure card form…
        </p>
      </div>
    );
  }
  if (step.kind === 'done') return <Done doneHref={doneHref} />;
  if (step.kind === 'authenticate')
    return <Authenticate step={step} stripePromise={stripePromise} endpoint={endpoint} actionLabel={actionLabel} doneHref={doneHref} />;
  return (
    <Elements stripe={stripePromise} options={{ clientSecret: step.clientSecret, appearance: { theme: 'stripe' } }}>
      <CardForm kind={step.kind} endpoint={endpoint} actionLabel={actionLabel} doneHref={doneHref} />
    </Elements>
  );
}

/** Asks the server until Stripe's webhook has reached it (the booking secured, the fee paid). */
async function waitForServer(endpoint: string, done: (state: { secureStatus: string | null; authenticationPending: boolean }) => boolean): Promise<boolean> {
  for (let i = 0; i < WAIT_TRIES; i++) {
    const response = await fetch(endpoint, { headers: { Accept: 'application/json' } }).catch(() => null);
    if (response?.ok && done((await response.json()) as { secureStatus: string | null; authenticationPending: boolean })) return true;
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  }
  return false;
}

function Done({ doneHref }: { doneHref: string }) {
  return (
    <div role="status" data-secure-phase="done" className="rounded-xl border border-brand-700/25 bg-brand-50 p-4 text-ink">
      <p className="font-semibold">All set.</p>
      <p className="mt-1">
        We e-mailed you the details.{' '}
        <a className="link" href={doneHref}>
          View your booking
        </a>
      </p>
    </div>
  );
}

function CardForm({ kind, endpoint, actionLabel, doneHref }: { kind: 'setup' | 'deposit'; endpoint: string; actionLabel: string; doneHref: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [phase, setPhase] = useState<Phase | 'loading'>('loading');
  const [message, setMessage] = useState<string | null>(null);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || phase !== 'ready') return;
    setPhase('saving');
    setMessage(null);
    try {
      const return_url = `${window.location.origin}${window.location.pathname}`;
      const result =
        kind === 'setup'
          ? await stripe.confirmSetup({ elements, confirmParams: { return_url }, redirect: 'if_required' })
          : await stripe.confirmPayment({ elements, confirmParams: { return_url }, redirect: 'if_required' });
      if (result.error) {
        setPhase('ready');
        setMessage(result.error.message ?? 'Your card was not accepted.');
        return;
      }
      setPhase('waiting');
      const secured = await waitForServer(endpoint, (state) => state.secureStatus === 'secured');
      setPhase(secured ? 'done' : 'failure');
      if (!secured) setMessage('Stripe accepted your card, but we have not heard back yet. We will e-mail you as soon as we do.');
    } catch {
      setPhase('ready');
      setMessage('Something went wrong while talking to Stripe. Nothing was charged; please try again.');
    }
  }

  if (phase === 'done') return <Done doneHref={doneHref} />;
  const disabled = !stripe || !elements || phase !== 'ready';
  return (
    <form
      onSubmit={onSubmit}
      data-secure-phase={phase}
      aria-busy={phase === 'loading' || phase === 'saving' || phase === 'waiting'}
      className="flex flex-col gap-4"
    >
      <PaymentElement onReady={() => setPhase((p) => (p === 'loading' ? 'ready' : p))} onLoadError={() => setPhase('failure')} />
      {message && (
        <p role="alert" className="field-error" data-secure-message>
          {message}
        </p>
      )}
      <button type="submit" className="btn-primary btn-lg w-full" disabled={disabled}>
        {phase === 'saving' ? 'Saving…' : phase === 'waiting' ? 'Confirming with Stripe…' : actionLabel}
      </button>
      <p role="status" className="sr-only">
        {phase === 'saving' ? 'Saving your card…' : phase === 'waiting' ? 'Waiting for Stripe to confirm…' : ''}
      </p>
    </form>
  );
}

function Authenticate({
  step,
  stripePromise,
  endpoint,
  actionLabel,
  doneHref,
}: {
  step: { clientSecret: string; paymentMethodId: string | null };
  stripePromise: Promise<Stripe | null>;
  endpoint: string;
  actionLabel: string;
  doneHref: string;
}) {
  const [phase, setPhase] = useState<Phase>('ready');
  const [message, setMessage] = useState<string | null>(null);

  async function confirm() {
    setPhase('saving');
    setMessage(null);
    try {
      const stripe = await stripePromise;
      if (!stripe) throw new Error('Stripe.js did not load');
      const result = await stripe.confirmPayment({
        clientSecret: step.clientSecret,
        confirmParams: {
          return_url: `${window.location.origin}${window.location.pathname}`,
          ...(step.paymentMethodId ? { payment_method: step.paymentMethodId } : {}),
        },
        redirect: 'if_required',
      });
      if (result.error) {
        setPhase('ready');
        setMessage(result.error.message ?? 'Your bank did not confirm the payment.');
        return;
      }
      setPhase('waiting');
      const paid = await waitForServer(endpoint, (state) => !state.authenticationPending);
      setPhase(paid ? 'done' : 'failure');
      if (!paid) setMessage('Your bank confirmed it, but we have not heard back from Stripe yet. We will e-mail your receipt as soon as we do.');
    } catch {
      setPhase('ready');
      setMessage('Something went wrong while talking to your bank. Nothing was charged; please try again.');
    }
  }

  if (phase === 'done') return <Done doneHref={doneHref} />;
  return (
    <div data-secure-phase={phase} className="flex flex-col gap-4">
      {message && (
        <p role="alert" className="field-error" data-secure-message>
          {message}
        </p>
      )}
      <button type="button" className="btn-primary btn-lg w-full" disabled={phase !== 'ready'} onClick={confirm}>
        {phase === 'saving' ? 'Confirming…' : phase === 'waiting' ? 'Confirming with Stripe…' : actionLabel}
      </button>
      <p role="status" className="sr-only">
        {phase === 'saving' ? 'Confirming with your bank…' : phase === 'waiting' ? 'Waiting for Stripe to confirm…' : ''}
      </p>
    </div>
  );
}
