// Every kind of page is valid HTML by the Nu HTML checker (vnu-jar, the W3C
// validator's engine): one page of each type, fetched from the site under
// test, checked in one run of the checker. Errors only; warnings are advice.
import { and, asc, eq, gt } from 'drizzle-orm';
import { offers, services, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { expect, test } from '../support/fixtures.ts';
import { htmlErrors } from '../support/html-checker.ts';

test('one page of each type has no HTML errors', async ({ request, playwright, baseURL, person, clientAddress }) => {
  test.setTimeout(120_000);
  const spa = db
    .select({ slug: spas.slug })
    .from(spas)
    .where(and(eq(spas.active, true), eq(spas.tier, 'ELITE')))
    .orderBy(asc(spas.id))
    .get();
  const offer = db.select({ slug: offers.slug }).from(offers).where(eq(offers.active, true)).orderBy(asc(offers.id)).get();
  const pages: Record<string, { path: string; status?: number }> = {
    home: { path: '/' },
    'search-results': { path: '/search-results?service=botox&city=irvine' },
    'client/*': { path: '/client/anything' },
    services: { path: '/services' },
    booking: { path: '/booking' },
    spa: { path: `/spas/${spa!.slug}` },
    city: { path: '/cities/newport-beach' },
    'city/treatment': { path: '/cities/newport-beach/botox' },
    offers: { path: '/offers' },
    offer: { path: `/offers/${offer!.slug}` },
    privacy: { path: '/privacy-policy' },
    terms: { path: '/terms-of-service' },
    sitemap: { path: '/sitemap' },
    'spa-owners': { path: '/spa-owners' },
    'not found': { path: '/no-such-page', status: 404 },
    'owner login': { path: '/owner/login' },
    'owner signup': { path: '/owner/signup' },
    'client login': { path: '/api/login' },
    newsletter: { path: '/newsletter' },
  };

  const documents: { name: string; html: string }[] = [];
  const save = (name: string, html: string) => documents.push({ name, html });
  for (const [name, { path, status = 200 }] of Object.entries(pages)) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(status);
    save(name, await response.text());
  }
  const signedIn = (role: 'client' | 'owner') =>
    playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { cookie: `session=${person(role, { firstName: 'Valid' }).token}; signed_in=1`, 'X-Forwarded-For': clientAddress },
    });
  // The member home, rendered on request for a signed-in visitor.
  const member = await signedIn('client');
  const home = await member.get('/');
  expect(home.status()).toBe(200);
  const memberHtml = await home.text();
  expect(memberHtml).toContain('Welcome back, Valid');
  save('member home', memberHtml);
  // Pages rendered on request whose first island is a form or the toasts: Astro writes its loader's <style> just before it (decision 0032).
  const service = db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.active, true), gt(services.priceCents, 0)))
    .orderBy(asc(services.id))
    .get();
  for (const [name, path] of [
    ['checkout', `/checkout?service=${service!.id}`],
    ['subscription', '/subscription'],
  ] as const) {
    const response = await member.get(path);
    expect(response.status(), path).toBe(200);
    save(name, await response.text());
  }
  await member.dispose();
  const ownerContext = await signedIn('owner');
  const dashboard = await ownerContext.get('/owner/dashboard');
  expect(dashboard.status()).toBe(200);
  save('owner dashboard', await dashboard.text());
  await ownerContext.dispose();

  expect(htmlErrors(documents)).toEqual([]);
});
