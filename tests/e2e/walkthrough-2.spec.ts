// What the second walk-through found (issue 26), one block per item, each
// test failing before its fix. The items whose tests are unit tests have them
// beside their code.
import type { Locator, Page } from '@playwright/test';
import { AXE_TAGS, axeBuilder } from '#tests/support/axe.ts';
import { asc, eq } from 'drizzle-orm';
import { bookings, cities, reviewInvitations, services, spaPhotos, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { openMobileMenu } from '../support/e2e-steps.ts';
import { expect, test, type ListingFields, type TestSpa, type TestUser } from '../support/fixtures.ts';
import { hydrated } from '../support/islands.ts';
import { photo } from '../support/test-images.ts';
import { addDays, pacificDate } from '#lib/dates.ts';

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const activeCities = () => db.select({ id: cities.id, name: cities.name, slug: cities.slug }).from(cities).where(eq(cities.active, true));

/** What the walk-through's listings say (the `listing` fixture's fields): a Premium listing with a description and its contacts. */
const WALK: ListingFields = {
  tier: 'PREMIUM',
  description: 'A calm harbor-side med spa for injectables, lasers and facials, with a physician on site every day.',
  address: '12 Harbor Way, Newport Beach',
  phone: '(949) 555-0142',
  email: 'hello@walk.example',
  website: 'https://walk.example',
};

async function uploadPhoto(page: Page, seed: number) {
  await page.getByLabel('Photo', { exact: true }).setInputFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: await photo(1600, 1067, 'jpeg', seed) });
  await page.getByRole('button', { name: 'Upload photo' }).click();
  await expect(page.getByRole('status').first()).toContainText('Photo uploaded');
}

/** A manage link's secret, as the server makes them (32 base32 characters). */
const manageToken = () => Array.from({ length: 32 }, () => 'abcdefghijklmnopqrstuvwxyz234567'[Math.floor(Math.random() * 32)]).join('');

const box = async (locator: Locator) => (await locator.boundingBox())!;

async function expectNoAxeViolations(page: Page) {
  const results = await axeBuilder(page).withTags(AXE_TAGS).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

// --- 3: an uploaded cover photo in the spa page's hero --------------------------

test.describe('the spa page hero with an uploaded cover photo (item 3)', () => {
  test('sits beside the intro at 1280 px and right under it at 375 px', async ({ page, signedIn, listing }, testInfo) => {
    test.setTimeout(90_000);
    const owner = await signedIn('owner');
    const spa = listing(owner, { ...WALK, name: `Harborlight Aesthetics ${unique()}` });
    await page.goto(`/owner/spas/${spa.id}/photos`);
    await uploadPhoto(page, 31);

    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      // No file for it yet: rendered from the data, as the page is until the next build.
      await page.goto(`/spas/${spa.slug}`);
      const header = page.locator('article > header');
      const intro = header.locator('> div').first();
      const picture = header.locator('picture');
      const img = picture.locator('img');
      await expect(picture.locator('source')).toHaveCount(2);
      await expect(img).toBeVisible();
      expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      const [i, p] = [await box(intro), await box(img)];
      if (width === 1280) {
        // Beside the words, in the same row: its top above the intro's bottom.
        expect(p.x).toBeGreaterThan(i.x + i.width);
        expect(p.y).toBeLessThan(i.y + i.height);
        expect(p.y + p.height).toBeGreaterThan(i.y);
      } else {
        // Under the words, one gap (2.5rem) below them, nothing in between.
        expect(Math.round(p.y - (i.y + i.height))).toBe(40);
      }
      await page.screenshot({ path: testInfo.outputPath(`spa-hero-${width}.png`) });
    }
  });
});

// --- 4 and 23 (photo cards): one tab bar on every page of a listing ------------

test.describe('the owner’s listing pages (items 4 and 23)', () => {
  const tabs = [
    ['Listing', ''],
    ['Photos', '/photos'],
    ['Services', '/services'],
    ['Offers', '/offers'],
    ['Hours & booking', '/availability'],
    ['Clinicians', '/clinicians'],
    ['Policies', '/policies'],
    ['Reviews', '/reviews'],
  ] as const;

  test('every page has the same tab bar, with its own tab marked', async ({ page, signedIn, listing }) => {
    test.setTimeout(60_000);
    const owner = await signedIn('owner');
    const spa = listing(owner, WALK);
    for (const [label, path] of tabs) {
      const response = await page.goto(`/owner/spas/${spa.id}${path}`);
      expect(response?.status(), path).toBe(200);
      const nav = page.getByRole('navigation', { name: 'Manage this spa' });
      await expect(nav.getByRole('link')).toHaveText(tabs.map(([name]) => name));
      for (const [name, href] of tabs) await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', `/owner/spas/${spa.id}${href}`);
      await expect(nav.locator('[aria-current="page"]')).toHaveText(label);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(spa.name);
    }
  });

  for (const width of [375, 1280]) {
    test(`the tab bar at ${width} px: every tab in sight, axe clean`, async ({ page, signedIn, listing }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      const owner = await signedIn('owner');
      const spa = listing(owner, WALK);
      await page.goto(`/owner/spas/${spa.id}/reviews`);
      const links = page.getByRole('navigation', { name: 'Manage this spa' }).getByRole('link');
      const boxes = await links.evaluateAll((all) => all.map((a) => a.getBoundingClientRect()).map((r) => ({ top: Math.round(r.top), right: r.right })));
      // Nothing to scroll to: every tab ends inside the page.
      for (const { right } of boxes) expect(right).toBeLessThanOrEqual(width);
      // One row of tabs on a wide screen; on a phone they wrap.
      if (width === 1280) expect(new Set(boxes.map((b) => b.top)).size).toBe(1);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`owner-tabs-${width}.png`) });
    });
  }

  // Item 23: a photo moves one way, its position (the drag fills it in).
  test('an owner’s photo cards have one way to move a photo', async ({ page, signedIn, listing }) => {
    test.setTimeout(90_000);
    const owner = await signedIn('owner');
    const spa = listing(owner, WALK);
    await page.goto(`/owner/spas/${spa.id}/photos`);
    await uploadPhoto(page, 41);
    await uploadPhoto(page, 42);
    const cards = page.locator('[data-photo-list] > li');
    await expect(cards).toHaveCount(2);
    await expect(page.getByRole('button', { name: /^Move (up|down)/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Set as cover/ })).toHaveCount(0);
    await expect(page.locator('[data-position-form]')).toHaveCount(2);
    // Photo 2 to the first place: the cover.
    await page.getByLabel('Position of photo 2').selectOption('1');
    await page.getByRole('button', { name: 'Move photo 2' }).click();
    await expect(page.getByRole('status').first()).toContainText('Cover photo set');
  });
});

// --- 9 and 23 (blank hero): the member home -------------------------------------

test.describe('the member home (items 9 and 23)', () => {
  /** Bookings of `user` in each state, of a listing nobody owns made with the test's `listing`. */
  function bookingsOf(listing: (owner: null, fields: ListingFields) => TestSpa, user: TestUser) {
    const spa = listing(null, { ...WALK, name: `Harborlight Aesthetics ${unique()}` });
    const service = db
      .insert(services)
      .values({ spaId: spa.id, name: 'Botox Cosmetic', priceCents: 1400, priceUnit: 'per unit', duration: 30, category: 'injectable' })
      .returning({ id: services.id })
      .get().id;
    // Written in each state as it stands (one a millisecond apart, so the cards' order is known), not moved through the lifecycle.
    const ids = {} as Record<'completed' | 'cancelled' | 'pending', number>;
    (['completed', 'cancelled', 'pending'] as const).forEach((status, i) => {
      ids[status] = db
        .insert(bookings)
        .values({
          userId: user.id,
          serviceId: service,
          spaId: spa.id,
          name: 'Noor Haddad',
          email: user.email,
          // Two weeks out, whatever the day: the next visit is one still to come.
          preferredDate: addDays(pacificDate(), 14),
          status,
          manageToken: manageToken(),
          createdAt: new Date(Date.now() + i),
        })
        .returning({ id: bookings.id })
        .get().id;
    });
    return { spa, ids };
  }

  test('booking cards name the spa, say "per unit", offer View or cancel only while it can be cancelled, and a completed visit links to its review', async ({
    page,
    signedIn,
    listing,
  }) => {
    const user = await signedIn('client', { firstName: 'Noor' });
    const { spa, ids } = bookingsOf(listing, user);
    await page.goto('/');
    const card = (id: number) => page.locator(`[data-booking-card="${id}"]`);
    for (const id of Object.values(ids)) {
      await expect(card(id)).toContainText(spa.name);
      await expect(card(id)).toContainText('$14.00 per unit');
    }
    await expect(card(ids.pending).getByRole('link', { name: /^View or cancel/ })).toBeVisible();
    await expect(card(ids.completed).getByRole('link', { name: /^View or cancel/ })).toHaveCount(0);
    await expect(card(ids.cancelled).getByRole('link', { name: /^View or cancel/ })).toHaveCount(0);
    await expect(card(ids.cancelled).getByRole('button', { name: /^Review/ })).toHaveCount(0);

    await card(ids.completed)
      .getByRole('button', { name: /^Review your visit/ })
      .click();
    await expect(page).toHaveURL(/\/reviews\/write\/[a-z2-7]{32}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`How was your visit to ${spa.name}?`);
    await page.getByRole('radio', { name: /5 stars/ }).check();
    await page.getByLabel(/^Your review/).fill('Kind staff, a careful injector, and the result looks natural. I will be back for my next appointment.');
    // The client confirms the visit themselves (decision 0029).
    await page.getByLabel(/^I visited .*, and this review is my own\./).check();
    await page.getByRole('button', { name: 'Publish review' }).click();
    await expect(page.getByRole('heading', { name: 'Your review is published' })).toBeVisible();
    // Reviewed: the card no longer offers it.
    await page.goto('/');
    await expect(card(ids.completed).getByRole('button', { name: /^Review/ })).toHaveCount(0);
    await expect(card(ids.completed)).toContainText('Reviewed');
  });

  test('the review link of someone else’s booking changes nothing and is not found', async ({ page, person, signedIn, listing }) => {
    const owner = person('client', { firstName: 'Noor' });
    const { ids } = bookingsOf(listing, owner);
    await signedIn('client', { firstName: 'Eve' });
    await page.goto('/');
    const response = await page.request.post('/reviews/new', { form: { booking: String(ids.completed) }, headers: { Origin: new URL(page.url()).origin } });
    expect(response.status()).toBe(404);
    expect(
      db.select({ bookingId: reviewInvitations.bookingId }).from(reviewInvitations).where(eq(reviewInvitations.bookingId, ids.completed)).all(),
    ).toHaveLength(0);
  });

  for (const width of [375, 1280]) {
    test(`the hero has no blank half at ${width} px: the next visit sits beside the search`, async ({ page, signedIn, listing }, testInfo) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width, height: 900 });
      const user = await signedIn('client', { firstName: 'Noor' });
      bookingsOf(listing, user);
      await page.goto('/');
      const hero = page.locator('[data-member-hero]');
      const search = hero.getByRole('search', { name: 'Find a provider' });
      const glance = hero.locator('[data-member-glance]');
      await expect(glance).toBeVisible();
      await expect(glance).toContainText('Botox Cosmetic');
      const [s, g, h] = [await box(search), await box(glance), await box(hero)];
      if (width === 1280) {
        expect(g.x).toBeGreaterThan(s.x + s.width);
        // The two columns fill the container: no more than its padding is left on the right.
        expect(h.x + h.width - (g.x + g.width)).toBeLessThan(120);
      } else {
        expect(g.y).toBeGreaterThan(s.y + s.height);
      }
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`member-home-${width}.png`), fullPage: true });
    });
  }
});

// --- 10 and 23 (current page): the account menus -----------------------------------

test.describe('the account menu (items 10 and 23)', () => {
  for (const { role, expected } of [
    { role: 'client', expected: ['Dashboard', 'Services'] },
    { role: 'owner', expected: ['Dashboard', 'Owner dashboard', 'Services'] },
    { role: 'admin', expected: ['Dashboard', 'Owner dashboard', 'Editor desk', 'Services'] },
  ] as const) {
    test(`for a signed-in ${role}`, async ({ page, signedIn }) => {
      await signedIn(role, { firstName: 'Ana', lastName: 'Ruiz' });
      await page.goto('/privacy-policy');
      await page.getByRole('button', { name: 'Account menu for Ana Ruiz' }).click();
      const menu = page.getByRole('menu', { name: 'Account' });
      const links = menu.locator('a[role="menuitem"]');
      await expect(links).toHaveText(expected);
      await expect(menu.getByRole('menuitem', { name: 'Dashboard', exact: true })).toHaveAttribute('href', '/');
      if (role !== 'client') await expect(menu.getByRole('menuitem', { name: 'Owner dashboard' })).toHaveAttribute('href', '/owner/dashboard');
      if (role === 'admin') {
        await expect(menu.getByRole('menuitem', { name: 'Editor desk' })).toHaveAttribute('href', '/admin');
        await menu.getByRole('menuitem', { name: 'Editor desk' }).click();
        await expect(page).toHaveURL(/\/admin$/);
      }
    });
  }

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 740 } });
    test('the sheet has the owner’s dashboard too', async ({ page, signedIn }) => {
      await signedIn('owner', { firstName: 'Ana' });
      const sheet = await openMobileMenu(page, '/privacy-policy');
      await expect(sheet.getByRole('link', { name: 'Owner dashboard' })).toBeVisible();
      await expect(sheet.getByRole('link', { name: 'Owner dashboard' })).toHaveAttribute('href', '/owner/dashboard');
      await expect(sheet.getByRole('link', { name: 'Editor desk' })).toBeHidden();
    });

    // Item 23: the page being shown is marked, as in the desktop navigation.
    test('the menu marks the page you are on', async ({ page }) => {
      const sheet = await openMobileMenu(page, '/services');
      await expect(sheet.getByRole('link', { name: 'Services', exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(sheet.getByRole('link', { name: 'Home', exact: true })).not.toHaveAttribute('aria-current', 'page');
    });
  });
});

// --- 11: a website given as a bare host ----------------------------------------

test.describe('the website field (item 11)', () => {
  test('the listing editor takes a bare host and stores https://', async ({ page, signedIn, listing }) => {
    const owner = await signedIn('owner');
    const spa = listing(owner, WALK);
    await page.goto(`/owner/spas/${spa.id}`);
    await page.getByLabel('Website').fill('walkthroughglow.example');
    await page.getByRole('button', { name: 'Save listing' }).click();
    await expect(page.locator('[data-owner-notice]')).toContainText('Listing saved');
    expect(db.select({ website: spas.website }).from(spas).where(eq(spas.id, spa.id)).get()!.website).toBe('https://walkthroughglow.example');
    await expect(page.getByLabel('Website')).toHaveValue('https://walkthroughglow.example');
  });
});

// --- 12: what the dashboard's view figure counts --------------------------------

test('the dashboard says its figure counts visits, one per visitor per half hour (item 12)', async ({ page, signedIn, listing }) => {
  const owner = await signedIn('owner');
  listing(owner, WALK);
  await page.goto('/owner/dashboard');
  const stat = page.locator('[data-stat="views"]').locator('..');
  await expect(stat.locator('dt')).toHaveText('Visits');
  await expect(stat).toContainText('a visitor counts once per half hour');
  await expect(page.getByText(/^Page views/)).toHaveCount(0);
});

// --- 14: ended offers ------------------------------------------------------------

test('/offers counts the offers still running, and an ended card says Ended (item 14)', async ({ page }) => {
  await page.goto('/offers');
  const running = page.locator('[data-offer-card]:not([data-expired])');
  const ended = page.locator('[data-offer-card][data-expired="true"]');
  expect(await ended.count()).toBeGreaterThan(0);
  await expect(page.locator('[data-offer-count]')).toHaveText(`${await running.count()} offer(s) available`);
  await expect(ended.first().locator('[data-offer-validity]')).toHaveText(/^Ended [A-Z][a-z]+ \d{1,2}, \d{4}$/);
  await expect(running.first().locator('[data-offer-validity]')).not.toHaveText(/^Ended/);
});

// --- 15 and 16: the editors' desk -------------------------------------------------

test.describe('the editors’ desk (items 15, 16)', () => {
  test('a listing awaiting review shows its details and photos', async ({ page, person, signedIn, listing }) => {
    const spa = listing(person('owner'), { ...WALK, active: false, reviewStatus: 'pending', tier: 'FREE' });
    db.insert(spaPhotos).values({ spaId: spa.id, url: '/images/spas/spa-03.svg', alt: 'Reception desk', position: 0 }).run();
    await signedIn('admin');
    await page.goto('/admin');
    const card = page.locator(`[data-review-spa="${spa.id}"]`);
    await expect(card).toContainText('A calm harbor-side med spa for injectables');
    await expect(card).toContainText('12 Harbor Way, Newport Beach');
    await expect(card).toContainText('(949) 555-0142');
    await expect(card).toContainText('hello@walk.example');
    await expect(card.getByRole('link', { name: /walk\.example/ })).toHaveAttribute('href', 'https://walk.example');
    await expect(card.getByRole('img', { name: 'Reception desk' })).toBeVisible();
    await expect(card.getByRole('link', { name: /^Open in the listing editor/ })).toHaveAttribute('href', `/owner/spas/${spa.id}`);
  });

  for (const { action, says } of [
    { action: 'verify', says: 'Only Elite listings show the verified badge' },
    { action: 'feature', says: 'Only Premium and Elite listings show featured placement' },
  ]) {
    test(`${action} on a FREE listing says the plan does not show it`, async ({ page, signedIn, listing }) => {
      const spa = listing(null, { ...WALK, tier: 'FREE', name: `Walk Free Spa ${unique()}` });
      await signedIn('admin');
      await page.goto(`/admin?q=${encodeURIComponent(spa.name)}`);
      await page.locator(`[data-listing="${spa.id}"] [data-action="${action}"]`).click();
      const notice = page.getByRole('status').filter({ hasText: says });
      await expect(notice).toBeVisible();
      await expect(page.locator(`[data-listing="${spa.id}"]`)).toContainText('not shown on the Free plan');
    });
  }

  test('feature on a Premium listing says plainly it is featured', async ({ page, signedIn, listing }) => {
    const spa = listing(null, { ...WALK, tier: 'PREMIUM', name: `Walk Premium Spa ${unique()}` });
    await signedIn('admin');
    await page.goto(`/admin?q=${encodeURIComponent(spa.name)}`);
    await page.locator(`[data-listing="${spa.id}"] [data-action="feature"]`).click();
    await expect(page.getByRole('status').filter({ hasText: 'Listing featured.' })).toBeVisible();
    await expect(page.getByText('show featured placement')).toHaveCount(0);
  });
});

// --- 17: /services grouped with jump links; the home's select sorted ---------------

test.describe('/services and the treatment choice (item 17)', () => {
  test('/services has a jump link to each category, each landing on its heading', async ({ page }) => {
    await page.goto('/services');
    const nav = page.getByRole('navigation', { name: 'Service categories' });
    const links = nav.getByRole('link');
    const count = await links.count();
    expect(count).toBeGreaterThanOrEqual(5);
    const headings = page.getByRole('region', { name: 'All services' }).locator('h3[id^="category-"]');
    await expect(headings).toHaveCount(count);
    for (let i = 0; i < count; i++) {
      const href = (await links.nth(i).getAttribute('href'))!;
      expect(href).toMatch(/^#category-/);
      await expect(page.locator(href)).toHaveCount(1);
    }
    // The heading comes to rest where its scroll margin puts it, below the fixed bar.
    const landsOn = async (link: Locator) => {
      const heading = page.locator((await link.getAttribute('href'))!);
      await link.click();
      await expect.poll(() => heading.evaluate((h) => h.getBoundingClientRect().top - parseFloat(getComputedStyle(h).scrollMarginTop))).toBeCloseTo(0, -1);
    };
    await landsOn(links.last());
    // Each category ends with a way back to the list of categories.
    await expect(page.getByRole('link', { name: 'Back to the categories' })).toHaveCount(count);
    // On a phone too, where the jump scrolls past every featured spa card (stacked) on its way.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/services');
    await landsOn(links.first());
  });

  test('the home’s treatment select is grouped by category, each group sorted by treatment', async ({ page }) => {
    await page.goto('/');
    const select = page.locator('#contact select[name="serviceId"]');
    const groups = await select
      .locator('optgroup')
      .evaluateAll((all) =>
        all.map((group) => ({ label: group.getAttribute('label'), options: [...group.querySelectorAll('option')].map((o) => o.textContent ?? '') })),
      );
    expect(groups.length).toBeGreaterThanOrEqual(5);
    for (const group of groups) {
      const sorted = [...group.options].sort((a, b) => a.localeCompare(b, 'en'));
      expect(group.options, group.label!).toEqual(sorted);
    }
  });

  for (const width of [375, 1280]) {
    test(`/services at ${width} px: axe clean`, async ({ page }, testInfo) => {
      // Two hundred service cards: axe takes its time over them.
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/services');
      await expectNoAxeViolations(page);
      await page.getByRole('navigation', { name: 'Service categories' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`services-${width}.png`) });
    });
  }
});

// --- 19: after a free signup, /owner/login says the link was sent -------------------

test('after a free signup the sign-in page says a link is on its way (item 19)', async ({ page }) => {
  // No limits are reset: this test signs up and asks for its link from an address of its own (../support/fixtures.ts).
  await page.goto('/owner/signup');
  await hydrated(page, 'OwnerSignupForm');
  await page.getByLabel('Spa name *').fill(`Walk Signup Spa ${unique()}`);
  await page.getByLabel('Your e-mail (owner) *').fill(`walk-signup-${unique()}@example.com`);
  await page.getByLabel('City *').selectOption({ label: activeCities().orderBy(asc(cities.name)).limit(1).get()!.name });
  await page.getByRole('button', { name: 'Submit Listing' }).click();
  await page.waitForURL(/\/owner\/login\?/);
  await expect(page.locator('[data-link-sent]')).toContainText('We e-mailed you a sign-in link');
  // Asked again with the same page, the notice stays truthful only for that visit.
  await page.goto('/owner/login');
  await expect(page.locator('[data-link-sent]')).toHaveCount(0);
});

// --- 21: no hydration mismatch when the first toast appears --------------------------

test('the first toast of a page logs no hydration error (item 21)', async ({ page }) => {
  // No limit is reset: this test asks for its link from an address of its own (../support/fixtures.ts).
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/owner/login');
  await hydrated(page, 'MagicLinkForm');
  await page.getByLabel('Email address').fill(`walk-toast-${unique()}@example.com`);
  await page.getByRole('button', { name: 'Send Magic Link' }).click();
  await expect(page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('status')).toContainText('Magic Link Sent!');
  await expect(page.locator('astro-island[component-url*="/Toaster."]:not([ssr])')).toBeAttached();
  expect(errors.filter((text) => /#418|hydrat/i.test(text))).toEqual([]);
});

// --- 22: wording ------------------------------------------------------------------

test('a change to a listing that is not public does not promise the public pages (item 22)', async ({ page, signedIn, listing }) => {
  const owner = await signedIn('owner');
  const spa = listing(owner, { ...WALK, active: false, reviewStatus: 'pending', tier: 'FREE' });
  await page.goto(`/owner/spas/${spa.id}/services`);
  const form = page.locator('[data-service-form]');
  await form.getByLabel('Service name').fill('Signature Facial');
  await form.getByLabel('All-in price').fill('150');
  await form.getByLabel('Duration').fill('60');
  await form.getByLabel('Category').selectOption('facial');
  await form.getByRole('button', { name: 'Add service' }).click();
  const notice = page.locator('[data-owner-notice]');
  await expect(notice).toContainText('Service added.');
  await expect(notice).not.toContainText('within a minute');
  await expect(notice).toContainText('once your listing is listed');
});

// --- 23: layout -------------------------------------------------------------------

test.describe('layout (item 23)', () => {
  test('/spa-owners: the hero’s right half shows how listing works', async ({ page }, testInfo) => {
    await page.goto('/spa-owners');
    const heading = page.getByRole('heading', { level: 1 });
    const steps = page.locator('[data-owner-steps]');
    await expect(steps).toBeVisible();
    const [h, s] = [await box(heading), await box(steps)];
    expect(s.x).toBeGreaterThan(640);
    expect(s.y).toBeLessThan(h.y + h.height + 200);
    await page.screenshot({ path: testInfo.outputPath('spa-owners-1280.png') });
  });

  test('search cards: Contact is a bordered button lined up with the others', async ({ page }) => {
    await page.goto('/search-results?service=botox');
    const card = page.locator('[data-spa-card]').first();
    const learn = card.getByRole('link', { name: /^Learn More/ });
    const contact = card.getByRole('link', { name: /^Contact/ });
    const style = (el: Locator) =>
      el.evaluate((a) => ({ shadow: getComputedStyle(a).boxShadow, border: getComputedStyle(a).borderTopWidth, pad: getComputedStyle(a).paddingLeft }));
    const [l, c] = [await style(learn), await style(contact)];
    expect(c.pad).toBe(l.pad);
    expect(c.shadow !== 'none' || c.border !== '0px').toBe(true);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 800 } });

    test('the carousel’s controls stay on one row', async ({ page }) => {
      await page.goto('/');
      const carousel = page.locator('astro-island[component-url*="/EliteCarousel."]');
      await carousel.scrollIntoViewIfNeeded();
      await hydrated(page, 'EliteCarousel');
      const previous = page.getByRole('button', { name: 'Previous spa' });
      const next = page.getByRole('button', { name: 'Next spa' });
      const [p, n] = [await box(previous), await box(next)];
      expect(Math.abs(p.y - n.y)).toBeLessThan(2);
      // Every control the carousel shows sits on the row of Previous and Next: no dots wrapping onto rows of their own.
      const middles = await carousel
        .locator('button:visible')
        .evaluateAll((all) => all.map((button) => Math.round(button.getBoundingClientRect().top + button.getBoundingClientRect().height / 2)));
      for (const middle of middles) expect(Math.abs(middle - (p.y + p.height / 2))).toBeLessThan(4);
      await expect(carousel.locator('[data-slide-count]')).toHaveText(/^1 of \d+$/);
      await next.click();
      await expect(carousel.locator('[data-slide-count]')).toHaveText(/^2 of \d+$/);
    });
  });

  test('/sitemap: the per-city treatment links look like links', async ({ page }) => {
    await page.goto('/sitemap');
    const city = page.getByRole('region', { name: 'Cities' });
    const main = page.getByRole('region', { name: 'Main pages' }).getByRole('link').first();
    const perCity = city.locator('ul ul a').first();
    const look = (el: Locator) => el.evaluate((a) => ({ color: getComputedStyle(a).color, line: getComputedStyle(a).textDecorationLine }));
    const [m, c] = [await look(main), await look(perCity)];
    expect(c.line).toContain('underline');
    expect(c.color).toBe(m.color);
  });
});
