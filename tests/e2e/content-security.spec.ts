// The Content-Security-Policy (issue 15, docs/decisions/0022): every page type
// loads in Chromium without one violation (the browser's
// securitypolicyviolation events and its console), every HTML answer carries
// the policy as a header with frame-ancestors 'none' and no 'unsafe-inline'
// for scripts, and a page cannot be framed. The payment pages with Stripe
// configured are checked the same way in tests/e2e-payments/content-security.spec.ts.
import { asc, eq } from 'drizzle-orm';
import { bookings, cities, offers, services, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { visit, watchViolations } from '../support/csp.ts';
import { expect, test } from '../support/fixtures.ts';

test.describe('Content-Security-Policy', () => {
  test.describe.configure({ timeout: 90_000 });

  test('public page types load without a violation', async ({ page }) => {
    const offer = db.select({ slug: offers.slug }).from(offers).where(eq(offers.active, true)).orderBy(asc(offers.id)).get();
    const spa = db.select({ id: spas.id, slug: spas.slug }).from(spas).where(eq(spas.active, true)).orderBy(asc(spas.id)).get()!;
    const city = db.select({ slug: cities.slug }).from(cities).orderBy(asc(cities.id)).get()!;
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

  test('signed-in pages (member home, checkout and plans without Stripe, owner dashboard) load without a violation', async ({ page, signedIn, listing }) => {
    const spa = listing(await signedIn('owner', { firstName: 'Csp' }), { name: 'Csp Spa' });
    const service = db.select({ id: services.id }).from(services).where(eq(services.active, true)).orderBy(asc(services.id)).get()!;
    const found: Record<string, string[]> = {};
    for (const path of ['/', '/member', '/owner/dashboard', `/checkout?service=${service.id}`, `/subscription?spaId=${spa.id}`]) {
      const violations = await visit(page, path);
      if (violations.length) found[path] = violations;
    }
    expect(found).toEqual({});
  });

  test('a booking’s manage page loads without a violation', async ({ page, request, baseURL, listing }) => {
    const spa = listing();
    const email = `csp-${Date.now()}@example.com`;
    const created = await request.post('/api/bookings', { data: { name: 'Csp Test', email, spaId: spa.id }, headers: { Origin: baseURL! } });
    expect(created.status()).toBe(201);
    const { manageToken: token } = db.select({ manageToken: bookings.manageToken }).from(bookings).where(eq(bookings.email, email)).get()!;
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
