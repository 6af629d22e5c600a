import { expect, test } from '../support/fixtures.ts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseURL } from '../support/env.ts';

test('the privacy policy and terms of service render their sections', async ({ page }) => {
  for (const [path, title] of [
    ['/privacy-policy', 'Privacy Policy'],
    ['/terms-of-service', 'Terms of Service'],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page).toHaveTitle(new RegExp(title));
    expect(await page.locator('main h2').count()).toBeGreaterThan(8);
    const toc = page.getByRole('navigation', { name: 'On this page' }).getByRole('link').first();
    const target = (await toc.getAttribute('href'))!;
    await toc.click();
    await expect(page.locator(target)).toBeInViewport();
  }
});

test('the sitemap page links to the main pages, services, cities, providers and searches', async ({ page, request }) => {
  await page.goto('/sitemap');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Sitemap');
  for (const slug of ['newport-beach', 'irvine', 'costa-mesa', 'huntington-beach', 'laguna-beach', 'dana-point', 'mission-viejo', 'anaheim']) {
    await expect(main.locator(`a[href="/cities/${slug}"]`)).toHaveCount(1);
  }
  const services = main.locator('a[href^="/search-results?service="]');
  await expect(services).toHaveCount(8);
  await expect(main.locator('a[href="/search-results?tier=premium"]')).toHaveCount(1);
  await expect(main.locator('a[href="/search-results?featured=true"]')).toHaveCount(1);
  const providers = await main.locator('a[href^="/spas/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  expect(providers.length).toBeGreaterThanOrEqual(48);

  const hrefs = await main.locator('a[href^="/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  for (const href of new Set(hrefs)) expect((await request.get(href)).status(), href).toBe(200);
});

test('a spa page shows the listing, and /spa/{slug} answers 301 to it', async ({ page, request }) => {
  await page.goto('/sitemap');
  const first = page.getByRole('main').locator('a[href^="/spas/"]').first();
  const href = (await first.getAttribute('href'))!;
  const name = (await first.textContent())!.trim();
  const slug = href.replace('/spas/', '');

  const redirect = await request.get(`/spa/${slug}`, { maxRedirects: 0 });
  expect(redirect.status()).toBe(301);
  expect(redirect.headers()['location']).toBe(`/spas/${slug}`);

  await page.goto(href);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.getByRole('heading', { name: 'Services' })).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}${href}`);
});

test('a city page lists its spas in tier order', async ({ page }) => {
  await page.goto('/cities/newport-beach');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Medical spas in Newport Beach');
  const tiers = await page.locator('main li .badge-elite, main li .badge-premium, main li .badge-free').allTextContents();
  expect(tiers.length).toBeGreaterThanOrEqual(6);
  const weight = { ELITE: 3, PREMIUM: 2, FREE: 1 } as Record<string, number>;
  const weights = tiers.map((t) => weight[t.trim()]!);
  expect(weights).toEqual([...weights].sort((a, b) => b - a));
});

test('robots.txt keeps private screens out and points at the sitemap', async ({ request }) => {
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Disallow: /owner/');
  expect(robots).toContain('Disallow: /api/');
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test('sitemap.xml is valid against the sitemaps.org schema and lists only live public pages', async ({ request }) => {
  const response = await request.get('/sitemap.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('xml');
  const xml = await response.text();
  const file = join(mkdtempSync(join(tmpdir(), 'sitemap-')), 'sitemap.xml');
  writeFileSync(file, xml);
  // Throws (and fails the test) when the document does not validate.
  execFileSync('xmllint', ['--noout', '--schema', 'node_modules/sitemap/schema/sitemap.xsd', file], { stdio: 'pipe' });

  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  expect(locs).toContain(`${baseURL}/`);
  expect(locs.filter((l) => /\/cities\/[^/]+$/.test(l))).toHaveLength(8);
  expect(locs.filter((l) => l.includes('/spas/')).length).toBeGreaterThanOrEqual(48);
  for (const loc of locs) {
    expect(loc).not.toMatch(/\/(api|owner|admin|checkout|subscription)(\/|$)/);
    const status = (await request.get(loc.replace(baseURL, ''))).status();
    expect(status, loc).toBe(200);
  }
});
