// The Stripe client, built once from the environment (astro:env, server-only
// secrets). Without STRIPE_SECRET_KEY payments are simply "not configured":
// getStripe() is null, pages say so and the endpoints answer 503
// (paymentsNotConfigured); nothing throws. The payment logic (payments.ts, checkout.ts, webhooks.ts beside
// this file) takes the client as an argument, so tests hand it one
// pointed at the local stand-in (tests/support/stripe-stand-in.ts).
import { STRIPE_API_HOST, STRIPE_API_PORT, STRIPE_API_PROTOCOL, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } from 'astro:env/server';
import Stripe from 'stripe';
import { unavailable, upstreamFailed } from '#lib/result.ts';

export interface StripeSettings {
  secretKey?: string | undefined;
  host?: string | undefined;
  port?: string | undefined;
  protocol?: string | undefined;
}

/** Client options for the settings; null when there is no secret key. Throws on a malformed port or protocol (a configuration mistake). */
export function stripeOptions(settings: StripeSettings): { key: string; config: Stripe.StripeConfig } | null {
  const key = settings.secretKey?.trim();
  if (!key) return null;
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'oc-medspa-directory' } };
  if (settings.host?.trim()) config.host = settings.host.trim();
  if (settings.port?.trim()) {
    if (!/^\d{1,5}$/.test(settings.port.trim())) throw new Error(`STRIPE_API_PORT=${JSON.stringify(settings.port)} must be a port number`);
    config.port = Number(settings.port.trim());
  }
  if (settings.protocol?.trim()) {
    const protocol = settings.protocol.trim();
    if (protocol !== 'http' && protocol !== 'https') throw new Error(`STRIPE_API_PROTOCOL=${JSON.stringify(protocol)} must be http or https`);
    config.protocol = protocol;
  }
  return { key, config };
}

export function createStripeClient(settings: StripeSettings): Stripe | null {
  const options = stripeOptions(settings);
  return options ? new Stripe(options.key, options.config) : null;
}

let client: Stripe | null | undefined;

/** The site's Stripe client, or null when payments are not configured. */
export function getStripe(): Stripe | null {
  if (client === undefined) {
    client = createStripeClient({ secretKey: STRIPE_SECRET_KEY, host: STRIPE_API_HOST, port: STRIPE_API_PORT, protocol: STRIPE_API_PROTOCOL });
  }
  return client;
}

export const paymentsConfigured = (): boolean => getStripe() !== null;

/**
 * For unit tests: the site's client as a configured site would have it (the
 * real SDK pointed at the local stand-in), or null for a site without keys;
 * undefined goes back to the environment (a worker's next test file needs that).
 */
export function useStripeClient(next: Stripe | null | undefined): void {
  client = next;
}

/** The webhook signing secret, or null (every delivery is then refused). */
export const webhookSecret = (): string | null => STRIPE_WEBHOOK_SECRET?.trim() || null;

export const PAYMENTS_NOT_CONFIGURED_MESSAGE = 'Payments are not configured on this site.';

export const paymentsNotConfigured = () => unavailable(PAYMENTS_NOT_CONFIGURED_MESSAGE, { code: 'payments_not_configured' });

/** Stripe failed or could not be reached: say so plainly, keep the details in the log. */
export function stripeUnavailable(error: unknown, what: string) {
  console.error(`billing: ${what} failed:`, error instanceof Error ? error.message : error);
  return upstreamFailed('The payment provider could not be reached. Please try again.', { code: 'payment_provider_error' });
}
