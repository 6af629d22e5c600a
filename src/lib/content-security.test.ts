import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, cspHash, inlineScripts, pageAnalyticsBootstrap } from './content-security.ts';

const directive = (policy: ReturnType<typeof contentSecurityPolicy>, name: string) => policy.directives.find((d) => d.startsWith(`${name} `));

describe('contentSecurityPolicy', () => {
  it('without Stripe or a tag: our own origin only, no frames, never framed, no unsafe-inline', () => {
    const policy = contentSecurityPolicy({ SITE_URL: 'http://localhost:4321' });
    expect(policy.scriptDirective.resources).toEqual(["'self'"]);
    expect(directive(policy, 'frame-src')).toBe("frame-src 'none'");
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self'");
    expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive(policy, 'form-action')).toBe("form-action 'self'");
    expect(JSON.stringify(policy)).not.toMatch(/unsafe-inline|stripe|google/);
    expect(policy.directives).not.toContain('upgrade-insecure-requests');
  });

  it('lists Stripe’s hosts only with a publishable key, and the Google tag’s only with a tag id', () => {
    const policy = contentSecurityPolicy({ SITE_URL: 'https://example.com', PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_x', PUBLIC_PAGE_ANALYTICS_ID: 'G-ABC123' });
    expect(policy.scriptDirective.resources).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://www.googletagmanager.com']));
    expect(directive(policy, 'connect-src')).toContain('https://api.stripe.com');
    expect(directive(policy, 'connect-src')).toContain('https://*.google-analytics.com');
    expect(directive(policy, 'frame-src')).toContain('https://js.stripe.com');
    expect(directive(policy, 'form-action')).toContain('https://checkout.stripe.com');
    expect(policy.directives).toContain('upgrade-insecure-requests');
    expect(policy.scriptDirective.hashes).toContain(cspHash(pageAnalyticsBootstrap('G-ABC123')));
  });

  it('hashes the inline snippets the pages print', () => {
    const { hashes } = contentSecurityPolicy({}).scriptDirective;
    for (const code of Object.values(inlineScripts)) expect(hashes).toContain(cspHash(code));
    // The browser's own hash of the same text (base64 of SHA-256).
    expect(cspHash('alert(1)')).toBe('sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=');
  });

  it('lets a form reach a local Stripe stand-in only when one is configured', () => {
    const withKey = { PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_x' };
    const standIn = { STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: '4001', STRIPE_API_PROTOCOL: 'http' };
    expect(directive(contentSecurityPolicy({ ...withKey, ...standIn }), 'form-action')).toContain('http://127.0.0.1:4001');
    expect(directive(contentSecurityPolicy(withKey), 'form-action')).not.toContain('127.0.0.1');
  });

  it('refuses a tag id that could break out of the snippet', () => {
    expect(() => pageAnalyticsBootstrap("G-1');alert(1);//")).toThrow(/not a Google tag id/);
  });
});
