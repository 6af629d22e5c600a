// The Content-Security-Policy (issue 15, docs/decisions/0022): every page type
// loads in Chromium without one violation (the browser's
// securitypolicyviolation events and its console), every HTML answer carries
// the policy as a header with frame-ancestors 'none' and no 'unsafe-inline'
// for scripts, and a page cannot be framed. The payment pages with Stripe
// configured are checked the same way in tests/e2e-payments/content-security.spec.ts.
import { expect, test } from '@playwright/test';
import { visit, watchViolations } from '../support/csp.ts';
import { query } from '../support/db.ts';
import { forgetLoopbackLimits } from '../support/limits.ts';
import { ownerWithSpaInNewCity } from '../support/spas.ts';

test.describe('Content-Security-Policy', () => {
  test.describe.configure({ timeout: 90_000 });

  test('public page types load without a violation', async ({ page }) => {
    const offer = query<{ slug: string }>('select slug from offers where active = 1 order by id limit 1')[0];
    const spa = query<{ id: number; slug: string }>('select id, slug from spas where active = 1 order by id limit 1')[0]!;
    const city = query<{ slug: string }>('select slug from cities order by id limit 1')[0]!;
    const paths = [
      '/',
      '/search-results?service=botox',
      `/cities/${city.slug}`,
      `/cities/${city.slug}/botox`,
      `/spas/${spa.slug}`,
      '/offers',
      ...(offer ? [`/offers/${offer.slug}`] : []),
      `/booking?spa=${spa.id}`,
      '/services',
      '/spa-owners',
      '/privacy-policy',
      '/sitemap',
      '/owner/login',
      '/owner/signup',
      '/api/login',
      '/newsletter',
    ];
    const found: Record<string, string[]> = {};
    for (const path of paths) {
      const violations = await visit(page, path);
      if (violations.length) found[path] = violations;
    }
    expect(found).toEqual({});
  });

  test('the 404 page loads without a violation', async ({ page }) => {
    expect(await visit(page, '/no-such-page-here', 404)).toEqual([]);
  });

  test('signed-in pages (member home, checkout and plans without Stripe, owner dashboard) load without a violation', async ({ page, context }) => {
    const { spa } = await ownerWithSpaInNewCity(context, { city: 'Csp City', spa: 'Csp Spa' }, { firstName: 'Csp' });
    const service = query<{ id: number }>('select id from services where active = 1 order by id limit 1')[0]!;
    const found: Record<string, string[]> = {};
    for (const path of ['/', '/member', '/owner/dashboard', `/checkout?service=${service.id}`, `/subscription?spaId=${spa.id}`]) {
      const violations = await visit(page, path);
      if (violations.length) found[path] = violations;
    }
    expect(found).toEqual({});
  });

  test('a booking’s manage page loads without a violation', async ({ page, request, baseURL }) => {
    forgetLoopbackLimits();
    const spa = query<{ id: number }>('select id from spas where active = 1 order by id limit 1')[0]!;
    const email = `csp-${Date.now()}@example.com`;
    const created = await request.post('/api/bookings', { data: { name: 'Csp Test', email, spaId: spa.id }, headers: { Origin: baseURL! } });
    expect(created.status()).toBe(201);
    const [{ manage_token: token }] = query<{ manage_token: string }>('select manage_token from bookings where email = ?', email) as [{ manage_token: string }];
    expect(await visit(page, `/bookings/manage/${token}`)).toEqual([]);
  });

  test('a page cannot be framed by another site', async ({ page, baseURL }) => {
    // Another origin (the loopback address by another name) frames the home page.
    const framer = baseURL!.replace('127.0.0.1', 'localhost');
    await page.route(`${framer}/framer`, (route) => route.fulfill({ contentType: 'text/html', body: `<iframe src="${baseURL}/" title="framed"></iframe>` }));
    expect((await page.request.get(`${baseURL}/`)).status()).toBe(200); // the page itself is there
    await page.goto(`${framer}/framer`);
    // Chromium replaces a frame its policy refuses with its own error page.
    await expect.poll(() => page.frames()[1]?.url()).toBe('chrome-error://chromewebdata/');
  });

  test('a script injected into the page is refused and reported', async ({ page }) => {
    const violations = await watchViolations(page);
    await page.goto('/');
    // What an injection would do: add an inline script. The policy must stop it.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.body.append(script);
    });
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    await expect.poll(violations).toEqual(expect.arrayContaining([expect.stringContaining('script-src')]));
  });
});
