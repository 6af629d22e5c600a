import { expect, test } from '@playwright/test';
import { query, withE2eDatabase, write } from '../support/db.ts';
import { holdRequests, openMobileMenu } from '../support/e2e-steps.ts';
import { hydrated } from '../support/islands.ts';
import { createSignedInUser, signIn } from '../support/sessions.ts';

test.describe('navigation when signed in', () => {
  test('shows a placeholder while the user loads, then the avatar menu', async ({ page, context }) => {
    const user = createSignedInUser({ firstName: 'Ana', lastName: 'Ruiz' });
    await signIn(context, user);
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

  test('falls back to the e-mail initial without names, and Sign Out ends the session', async ({ page, context }) => {
    const user = createSignedInUser();
    await signIn(context, user);
    await page.goto('/sitemap');
    await expect(page.getByTestId('avatar-initials')).toHaveText('U');
    await page.getByRole('button', { name: `Account menu for ${user.email}` }).click();
    const menu = page.getByRole('menu', { name: 'Account' });
    // Case-sensitive: the random address itself may contain "ana".
    await expect(menu.getByText(/Ana/)).toHaveCount(0);
    await menu.getByRole('menuitem', { name: 'Sign Out', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Find your trusted medical spa');
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
    expect(query('select 1 from sessions where user_id = ?', user.id)).toHaveLength(0);
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
  test('shows the user and Sign Out instead of Sign In and Book Now', async ({ page, context }) => {
    const user = createSignedInUser({ firstName: 'Mia', lastName: 'Chen' });
    await signIn(context, user);
    const sheet = await openMobileMenu(page, '/privacy-policy');
    await expect(sheet).toContainText('Mia Chen');
    await expect(sheet).toContainText(user.email);
    await expect(sheet.getByRole('button', { name: 'Sign Out', exact: true })).toBeVisible();
    await expect(sheet.locator('form[method="post"][action="/api/logout"]')).toHaveCount(1);
    await expect(sheet.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  });
});

test.describe('member home', () => {
  test('greets by first name and lists up to 6 bookings with their details', async ({ page, context }) => {
    const user = createSignedInUser({ firstName: 'Lena' });
    const [service] = query<{ id: number; name: string; duration: number; price_cents: number }>(
      'select id, name, duration, price_cents from services where price_cents > 0 and active = 1 limit 1',
    );
    const statuses = ['pending', 'confirmed', 'cancelled', 'completed', 'pending', 'confirmed', 'pending'];
    withE2eDatabase(
      (db) => {
        const insert = db.prepare('insert into bookings (user_id, service_id, name, email, preferred_date, status, created_at) values (?, ?, ?, ?, ?, ?, ?)');
        statuses.forEach((status, i) =>
          insert.run(user.id, i === 0 ? null : service!.id, 'Lena', user.email, i === 1 ? null : '2026-12-15', status, Date.now() + i),
        );
      },
      { write: true },
    );
    await signIn(context, user);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Lena');
    const cards = page.locator('[data-booking-card]');
    await expect(cards).toHaveCount(6);
    // Newest first: the last inserted (pending, with service) leads.
    await expect(cards.first()).toContainText(service!.name);
    await expect(cards.first()).toContainText(`${service!.duration} minutes`);
    await expect(cards.first()).toContainText(`$${(service!.price_cents / 100).toFixed(2)}`);
    await expect(cards.first().locator('[data-status]')).toHaveClass(/badge-status-pending/);
    await expect(page.locator('[data-booking-card] [data-status="confirmed"]').first()).toHaveClass(/badge-status-confirmed/);
    // Six of seven: the oldest (the one without a service) is not shown.
    await expect(page.getByText('Consultation request')).toHaveCount(0);
    await expect(page.locator('[data-booking-card]', { hasText: 'Date TBD' })).toHaveCount(1);
    await expect(page.getByRole('search', { name: 'Find a provider' })).toBeVisible();
  });

  test('says Beautiful without a first name, and shows the empty state', async ({ page, context }) => {
    await signIn(context, createSignedInUser());
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Beautiful');
    await expect(page.getByRole('heading', { name: 'Begin Your Wellness Journey' })).toBeVisible();
  });

  test('shows Date TBD and Duration TBD when they are unknown', async ({ page, context }) => {
    const user = createSignedInUser({ firstName: 'Zoe' });
    write('insert into bookings (user_id, name, email, status) values (?, ?, ?, ?)', user.id, 'Zoe', user.email, 'pending');
    await signIn(context, user);
    await page.goto('/');
    const card = page.locator('[data-booking-card]');
    await expect(card).toContainText('Date TBD');
    await expect(card).toContainText('Duration TBD');
  });

  test('a stale session cookie gets the public home', async ({ page, context }) => {
    await context.addCookies([
      { name: 'session', value: 'aaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', url: (await import('../support/env.ts')).baseURL },
    ]);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Find your trusted medical spa');
    expect((await context.cookies()).find((c) => c.name === 'session')).toBeUndefined();
  });
});
