import { describe, expect, it } from 'vitest';
import { createStripeClient, getStripe, paymentsConfigured, stripeOptions } from './billing.ts';

describe('the Stripe client from the environment', () => {
  it('is "not configured" without a secret key, and nothing throws', () => {
    expect(stripeOptions({})).toBeNull();
    expect(stripeOptions({ secretKey: '   ', host: '127.0.0.1', port: '' })).toBeNull();
    expect(createStripeClient({ secretKey: '' })).toBeNull();
    // Unless a developer's .env sets a key, the unit tests run without one.
    if (!process.env.STRIPE_SECRET_KEY) {
      expect(getStripe()).toBeNull();
      expect(paymentsConfigured()).toBe(false);
    }
  });

  it('points the SDK at a local stand-in when asked', () => {
    const options = stripeOptions({ secretKey: 'sk_test_x', host: '127.0.0.1', port: '12111', protocol: 'http' })!;
    expect(options.key).toBe('sk_test_x');
    expect(options.config).toMatchObject({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(stripeOptions({ secretKey: 'sk_test_x', host: '', port: '', protocol: '' })!.config).not.toHaveProperty('host');
    expect(createStripeClient({ secretKey: 'sk_test_x' })).not.toBeNull();
  });

  it('names a malformed setting', () => {
    expect(() => stripeOptions({ secretKey: 'sk_test_x', port: 'eighty' })).toThrow(/STRIPE_API_PORT/);
    expect(() => stripeOptions({ secretKey: 'sk_test_x', protocol: 'ftp' })).toThrow(/STRIPE_API_PROTOCOL/);
  });
});
