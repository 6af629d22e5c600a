// The fixtures themselves (tests/support/fixtures.ts): what they make is what
// the site then shows, and each test is a client of its own.
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';

test('a signed-in owner sees the listing the fixture made on their dashboard', async ({ page, signedIn, listing }) => {
  const owner = await signedIn('owner', { firstName: 'Fixture' });
  const spa = listing(owner, { name: 'Fixture Glow Studio' });
  await page.goto('/owner/dashboard');
  await expect(page.getByRole('main')).toContainText(spa.name);
});

test('a booking made in a state shows in that state on its manage page', async ({ page, listing, booking }) => {
  const spa = listing(null, { name: 'Fixture Booking Spa' });
  const made = booking({ spa, status: 'confirmed' });
  await page.goto(`/bookings/manage/${made.manageToken}`);
  await expect(page.getByRole('main')).toContainText(/confirmed/i);
});

test.describe('each test is a client of its own', () => {
  test.describe.configure({ mode: 'serial' });
  const ask = (api: APIRequestContext, spaId: number, n: number) =>
    api.post('/api/bookings', { data: { name: 'Limit Probe', email: `probe-${n}-${Date.now()}@example.com`, spaId } });

  test('one test spends its address’s booking allowance (10 an hour)', async ({ request, listing, clientAddress }) => {
    expect(clientAddress).toMatch(/^10\.\d+\.\d+\.\d+$/);
    const spa = listing();
    const statuses: number[] = [];
    for (let n = 0; n < 11; n++) statuses.push((await ask(request, spa.id, n)).status());
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429]);
  });

  test('the next test books at once, without resetting anything', async ({ request, listing }) => {
    expect((await ask(request, listing().id, 0)).status()).toBe(201);
  });
});
