// Departures from the spec found by the walk-through (issue 10), each pinned
// by a test that failed before its fix.
import { expect, test } from '@playwright/test';
import { query, write } from './db.ts';
import { baseURL } from './env.ts';
import { createSignedInUser, signIn } from './sessions.ts';

test.describe('signed in, About leads somewhere', () => {
  test('the member home has #about, reached from the navigation and the footer', async ({ page, context }) => {
    await signIn(context, createSignedInUser({ firstName: 'Noor' }));
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Noor');
    await expect(page.locator('#about')).toHaveCount(1);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About', exact: true }).click();
    await expect(page).toHaveURL(/\/#about$/);
    await expect(page.locator('#about')).toBeInViewport();

    await page.goto('/privacy-policy');
    await page.getByRole('contentinfo').getByRole('link', { name: 'About Us' }).click();
    await expect(page).toHaveURL(/\/#about$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Noor');
    await expect(page.locator('#about')).toBeInViewport();
  });
});

test.describe('home', () => {
  test('the services grid shows service cards with Learn More, and keeps the treatment tiles below', async ({ page }) => {
    await page.goto('/');
    const grid = page.getByRole('region', { name: 'Featured services' });
    const cards = grid.locator('[data-service-card]');
    await expect(cards).toHaveCount(6);
    const categories = await cards.locator('[data-category]').allTextContents();
    expect(new Set(categories).size).toBe(6);
    const first = cards.first();
    const id = await first.getAttribute('data-service-id');
    const [service] = query<{ slug: string }>('select p.slug from services s join spas p on p.id = s.spa_id where s.id = ?', Number(id));
    await expect(first.getByRole('link', { name: /^Learn More/ })).toHaveAttribute('href', `/spas/${service!.slug}#service-${id}`);
    await expect(grid.getByRole('link', { name: /^Book Now/ })).toHaveCount(0);
    // The eight treatment tiles stay, below the cards.
    await expect(page.getByRole('region', { name: 'Popular treatments' }).getByRole('listitem')).toHaveCount(8);
    await first.getByRole('link', { name: /^Learn More/ }).click();
    await expect(page).toHaveURL(new RegExp(`/spas/${service!.slug}#service-${id}$`));
  });

  test('shows the brand line, premier medical spa destination', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('main')).toContainText('The premier medical spa destination in Orange County');
  });
});

test.describe('the mobile sheet of a signed-in visitor', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('shows the loading placeholder, not Sign In and Book Now, until the lookup returns', async ({ page, context }) => {
    await signIn(context, createSignedInUser({ firstName: 'Lea', lastName: 'Park' }));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/user', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/privacy-policy');
    await expect(page.locator('[data-menu-ready]')).toBeAttached();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sheet = page.getByRole('dialog', { name: 'Menu' });
    await expect(sheet.getByRole('img', { name: 'Loading your account' })).toBeVisible();
    await expect(sheet.getByRole('link', { name: 'Sign In' })).toBeHidden();
    await expect(sheet.getByRole('link', { name: 'Book Now' })).toBeHidden();
    release();
    await expect(sheet).toContainText('Lea Park');
    await expect(sheet.getByRole('img', { name: 'Loading your account' })).toBeHidden();
    await expect(sheet.getByRole('link', { name: 'Sign In' })).toBeHidden();
  });

  test('falls back to Sign In when the lookup says signed out', async ({ page, context }) => {
    await context.addCookies([{ name: 'signed_in', value: '1', url: baseURL }]);
    await page.goto('/privacy-policy');
    await expect(page.locator('[data-menu-ready]')).toBeAttached();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sheet = page.getByRole('dialog', { name: 'Menu' });
    await expect(sheet.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(sheet.getByRole('img', { name: 'Loading your account' })).toBeHidden();
  });
});

test.describe('owner dashboard: a failed session check', () => {
  const notifications = (page: import('@playwright/test').Page) => page.getByRole('region', { name: 'Notifications (F8)' });

  test('is a destructive toast, for an expired session', async ({ page, context }) => {
    const user = createSignedInUser({ role: 'owner' });
    await signIn(context, user);
    write('update sessions set expires_at = ? where id = ?', Date.now() - 1000, user.token.split('.')[0]);
    const response = await page.goto('/owner/dashboard');
    expect(response?.status()).toBe(401);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Authentication required');
    const alert = notifications(page).getByRole('alert');
    await expect(alert).toContainText('Authentication Error');
    await expect(alert).toContainText('Unable to verify your session. Please log in again.');
    // No longer an inline box beside the heading: the toast is the one alert.
    await expect(page.getByRole('alert')).toHaveCount(1);
  });

  test('is a toast too when only the signed-in hint is left', async ({ page, context }) => {
    await context.addCookies([{ name: 'signed_in', value: '1', url: baseURL }]);
    await page.goto('/owner/dashboard');
    await expect(notifications(page).getByRole('alert')).toContainText('Unable to verify your session. Please log in again.');
  });
});
