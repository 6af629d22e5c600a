import { and, eq, gt } from 'drizzle-orm';
import { bookings, sessions, services } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { holdRequests, openMobileMenu } from '../support/e2e-steps.ts';
import { baseURL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { hydrated } from '../support/islands.ts';
import { addDays, pacificDate } from '#lib/dates.ts';

test.describe('navigation when signed in', () => {
  test('shows a placeholder while the user loads, then the avatar menu', async ({ page, signedIn }) => {
    const user = await signedIn('client', { firstName: 'Ana', lastName: 'Ruiz' });
    const release = await holdRequests(page, '**/api/auth/user');
    await page.goto('/privacy-policy');
    await hydrated(page, 'UserNav');
    await expect(page.getByTestId('avatar-placeholder')).toBeVisible();
    release();
    const button = page.getByRole('button', { name: 'Account menu for Ana Ruiz' });
    await expect(button).toBeVisible();
    await expect(page.getByTestId('avatar-initials')).toHaveText('AR');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toHaveCount(0);

    await button.click();
    const menu = page.getByRole('menu', { name: 'Account' });
    await expect(menu).toContainText('Ana Ruiz');
    await expect(menu).toContainText(user.email);
    await expect(menu.getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute('href', '/');
    await expect(menu.getByRole('menuitem', { name: 'Services' })).toHaveAttribute('href', '/services');
    await expect(menu.getByRole('menuitem', { name: 'Dashboard' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Services' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();
  });

  test('falls back to the e-mail initial without names, and Sign Out ends the session', async ({ page, signedIn }) => {
    const user = await signedIn();
    await page.goto('/sitemap');
    await expect(page.getByTestId('avatar-initials')).toHaveText(user.email[0]!.toUpperCase());
    await page.getByRole('button', { name: `Account menu for ${user.email}` }).click();
    const menu = page.getByRole('menu', { name: 'Account' });
    // Case-sensitive: the random address itself may contain "ana".
    await expect(menu.getByText(/Ana/)).toHaveCount(0);
    await menu.getByRole('menuitem', { name: 'Sign Out', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Find your trusted medical spa');
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
    expect(db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id)).all()).toHaveLength(0);
  });

  test('a signed-out visitor downloads no React for the account corner', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/privacy-policy');
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((url) => url.includes('UserNav'))).toEqual([]);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/api/login');
  });
});

test.describe('the mobile sheet when signed in', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('shows the user and Sign Out instead of Sign In and Book Now', async ({ page, signedIn }) => {
    const user = await signedIn('client', { firstName: 'Mia', lastName: 'Chen' });
    const sheet = await openMobileMenu(page, '/privacy-policy');
    await expect(sheet).toContainText('Mia Chen');
    await expect(sheet).toContainText(user.email);
    await expect(sheet.getByRole('button', { name: 'Sign Out', exact: true })).toBeVisible();
    await expect(sheet.locator('form[method="post"][action="/api/logout"]')).toHaveCount(1);
    await expect(sheet.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  });
});

test.describe('member home', () => {
  test('greets by first name and lists up to 6 bookings with their details', async ({ page, signedIn }) => {
    const user = await signedIn('client', { firstName: 'Lena' });
    const service = db
      .select({ id: services.id, name: services.name, duration: services.duration, priceCents: services.priceCents })
      .from(services)
      .where(and(gt(services.priceCents, 0), eq(services.active, true)))
      .get();
    const statuses = ['pending', 'confirmed', 'cancelled', 'completed', 'pending', 'confirmed', 'pending'] as const;
    // Rows as the member home reads them, in states the lifecycle would not leave them in (confirmed without a time), one by one a millisecond apart.
    db.insert(bookings)
      .values(
        statuses.map((status, i) => ({
          userId: user.id,
          serviceId: i === 0 ? null : service!.id,
          name: 'Lena',
          email: user.email,
          preferredDate: i === 1 ? null : addDays(pacificDate(), 14),
          status,
          createdAt: new Date(Date.now() + i),
        })),
      )
      .run();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Lena');
    const cards = page.locator('[data-booking-card]');
    await expect(cards).toHaveCount(6);
    // Newest first: the last inserted (pending, with service) leads.
    await expect(cards.first()).toContainText(service!.name);
    await expect(cards.first()).toContainText(`${service!.duration} minutes`);
    await expect(cards.first()).toContainText(`$${(service!.priceCents / 100).toFixed(2)}`);
    await expect(cards.first().locator('[data-status]')).toHaveClass(/badge-status-pending/);
    await expect(page.locator('[data-booking-card] [data-status="confirmed"]').first()).toHaveClass(/badge-status-confirmed/);
    // Six of seven: the oldest (the one without a service) is not shown.
    await expect(page.getByText('Consultation request')).toHaveCount(0);
    await expect(page.locator('[data-booking-card]', { hasText: 'Date TBD' })).toHaveCount(1);
    await expect(page.getByRole('search', { name: 'Find a provider' })).toBeVisible();
  });

  test('says Beautiful without a first name, and shows the empty state', async ({ page, signedIn }) => {
    await signedIn();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Beautiful');
    await expect(page.getByRole('heading', { name: 'Begin Your Wellness Journey' })).toBeVisible();
  });

  test('shows Date TBD and Duration TBD when they are unknown', async ({ page, signedIn }) => {
    const user = await signedIn('client', { firstName: 'Zoe' });
    db.insert(bookings).values({ userId: user.id, name: 'Zoe', email: user.email, status: 'pending' }).run();
    await page.goto('/');
    const card = page.locator('[data-booking-card]');
    await expect(card).toContainText('Date TBD');
    await expect(card).toContainText('Duration TBD');
  });

  test('a stale session cookie gets the public home', async ({ page, context }) => {
    await context.addCookies([{ name: 'session', value: 'aaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', url: baseURL }]);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Find your trusted medical spa');
    expect((await context.cookies()).find((c) => c.name === 'session')).toBeUndefined();
  });
});
