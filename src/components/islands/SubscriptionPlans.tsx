// Premium and Elite plans with the monthly/annual switch (spec 2 Subscription,
// spec 8 Subscription errors). One <form method="post">: without JavaScript it
// posts to /subscription, which starts Stripe Checkout and redirects; the
// switch shows the right prices by CSS alone (:has(:checked)). Hydrated, the
// form asks POST /api/stripe/checkout and shows the spec's toasts. The radios
// and the spa select are uncontrolled, so whatever was chosen before
// hydration is what is sent.
import { useState, type SubmitEvent } from 'react';
import { postJson } from '#lib/client/post-json.ts';
import { afterToastShown, toast } from '#lib/client/toasts.ts';
import PlanPrices from '../PlanPrices.tsx';
import { SelectField } from './field-errors.tsx';

export interface PlanCard {
  tier: 'PREMIUM' | 'ELITE';
  name: string;
  monthly: string;
  annual: string;
  annualSavings: string;
  features: string[];
}

interface Props {
  plans: PlanCard[];
  spas: { id: number; name: string }[];
  selectedSpaId: number | null;
  initialBilling: 'monthly' | 'annual';
  loginUrl: string;
  /** False when Stripe is not configured: the plans show, the buttons do not. */
  enabled: boolean;
}

export const ELITE_UNAVAILABLE = {
  title: 'Elite Tier Unavailable',
  description: 'The maximum of 3 Elite spas per city has been reached. Please try Premium instead.',
} as const;

export default function SubscriptionPlans({ plans, spas, selectedSpaId, initialBilling, loginUrl, enabled }: Props) {
  const [pending, setPending] = useState<string | null>(null);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const submitter = (event.nativeEvent as unknown as { submitter?: HTMLButtonElement | null }).submitter;
    const tier = submitter?.value ?? String(form.get('tier') ?? '');
    const spaId = form.get('spaId');
    setPending(tier);
    try {
      const response = await postJson('/api/stripe/checkout', {
        tier,
        billing: form.get('billing') === 'annual' ? 'yearly' : 'monthly',
        ...(spaId ? { spaId: Number(spaId) } : {}),
      });
      if (response.status === 401) {
        toast({ title: 'Sign in required', description: 'Please sign in to subscribe.', variant: 'destructive' });
        afterToastShown(500, () => window.location.assign(loginUrl));
        return;
      }
      const body = (await response.json().catch(() => ({}))) as { url?: string; error?: { code?: string; message?: string } };
      // The server's error code says the city is full, not the words of its message.
      if (body.error?.code === 'elite_capacity') {
        setPending(null);
        toast({ ...ELITE_UNAVAILABLE, variant: 'destructive' });
        return;
      }
      if (!response.ok) throw new Error(body.error?.message || 'Failed to start subscription process');
      if (!body.url) throw new Error('No checkout URL returned');
      window.location.assign(body.url);
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      setPending(null);
      toast({ title: 'Subscription Error', description: message || 'Failed to start subscription process', variant: 'destructive' });
    }
  }

  return (
    <form method="post" action="/subscription" onSubmit={onSubmit} className="billing-plans mt-8" data-plans>
      <fieldset className="flex flex-wrap items-center gap-3">
        <legend className="sr-only">Billing</legend>
        <label className="billing-option">
          <input type="radio" name="billing" value="monthly" defaultChecked={initialBilling === 'monthly'} className="sr-only" data-billing="monthly" />
          <span>Monthly</span>
        </label>
        <label className="billing-option">
          <input type="radio" name="billing" value="annual" defaultChecked={initialBilling === 'annual'} className="sr-only" data-billing="annual" />
          <span>
            Annual <span className="badge-premium ml-1">Save 20%</span>
          </span>
        </label>
      </fieldset>

      {enabled && spas.length > 1 && (
        <SelectField
          className="field mt-6 max-w-sm"
          id="plan-spa"
          name="spaId"
          label="Spa to upgrade"
          options={spas.map((spa) => ({ value: spa.id, label: spa.name }))}
          defaultValue={selectedSpaId ?? spas[0]!.id}
        />
      )}
      {enabled && spas.length === 1 && <input type="hidden" name="spaId" value={spas[0]!.id} />}

      <div className="mt-6 grid gap-6 md:grid-cols-2">
        {plans.map((plan) => (
          <section key={plan.tier} className="card flex flex-col p-6 sm:p-8" aria-labelledby={`plan-${plan.tier}`}>
            <h2 id={`plan-${plan.tier}`} className="font-serif text-2xl text-ink">
              {plan.name}
            </h2>
            <PlanPrices {...plan} />
            <ul className="mt-4 flex flex-1 flex-col gap-2 text-sm text-ink-muted">
              {plan.features.map((feature) => (
                <li key={feature}>✓ {feature}</li>
              ))}
            </ul>
            {enabled && spas.length > 0 && (
              <button
                type="submit"
                name="tier"
                value={plan.tier}
                className={plan.tier === 'ELITE' ? 'btn-gold mt-6' : 'btn-primary mt-6'}
                disabled={pending !== null}
              >
                {pending === plan.tier ? 'Starting checkout…' : `Choose ${plan.name}`}
              </button>
            )}
          </section>
        ))}
      </div>
    </form>
  );
}
