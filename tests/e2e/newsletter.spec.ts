// The newsletter round trip: the footer sign-up (a plain form), the
// confirmation mail (double opt-in), the welcome mail's one-click unsubscribe
// (RFC 8058), re-subscribing, and one row per address throughout.
import { eq } from 'drizzle-orm';
import { newsletterSubscribers } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { axeViolationIds } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';
import { decodeQuotedPrintable, linkIn, messageInOutbox, messagesTo } from '../support/outbox.ts';

const uniqueEmail = () => `reader-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@example.com`;

const rowsFor = (email: string) =>
  db
    .select({
      email: newsletterSubscribers.email,
      subscribed: newsletterSubscribers.subscribed,
      confirmedAt: newsletterSubscribers.confirmedAt,
      unsubscribedAt: newsletterSubscribers.unsubscribedAt,
      source: newsletterSubscribers.source,
    })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.email, email))
    .all();

test.describe('newsletter', () => {
  test('sign up, confirm, unsubscribe with one click, subscribe again: one row all along', async ({ page, request }) => {
    // A whole round trip (eight pages, two mails waited for, two axe scans): more than one step's 30 s.
    test.setTimeout(90_000);
    const email = uniqueEmail();
    await page.goto('/offers');
    const footerForm = page.locator('footer form[data-newsletter-form]');
    await footerForm.getByLabel('Newsletter email').fill(email.toUpperCase());
    await footerForm.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    expect(rowsFor(email)).toMatchObject([{ subscribed: false, confirmedAt: null, source: 'footer' }]);

    // Opening the link changes nothing: a mail scanner must not confirm for anyone.
    const confirm = linkIn(await messageInOutbox(email, 'Confirm your subscription'), '/newsletter/confirm?');
    await page.goto(confirm.pathname + confirm.search);
    expect(rowsFor(email)[0]!.subscribed).toBe(false);
    expect(await axeViolationIds(page)).toEqual([]);
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
    expect(rowsFor(email)[0]).toMatchObject({ subscribed: true });
    expect(rowsFor(email)[0]!.confirmedAt).not.toBeNull();

    // A confirmation link works once.
    await page.goto(confirm.pathname + confirm.search);
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect(page.getByRole('heading', { name: 'This link can’t be used' })).toBeVisible();

    // The welcome mail carries RFC 8058 headers; a mail provider POSTs without an Origin.
    const welcome = decodeQuotedPrintable(await messageInOutbox(email, 'Welcome'));
    expect(welcome).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const header = /^List-Unsubscribe: <([^>]+)>/m.exec(welcome.replace(/\r?\n[ \t]+/g, ' '));
    expect(header, 'a List-Unsubscribe header').not.toBeNull();
    const unsubscribe = new URL(header![1]!);
    const oneClick = await request.post(unsubscribe.pathname + unsubscribe.search, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      data: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status()).toBe(200);
    expect(rowsFor(email)[0]).toMatchObject({ subscribed: false });
    expect(rowsFor(email)[0]!.unsubscribedAt).not.toBeNull();

    // The same link in a browser: the page says so and offers the way back.
    await page.goto(unsubscribe.pathname + unsubscribe.search);
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
    await page.getByRole('button', { name: /Subscribe again/ }).click();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    expect(rowsFor(email)[0]).toMatchObject({ subscribed: true, unsubscribedAt: null });
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();

    // Signing up again from the footer: a new confirmation, still one row.
    const before = (await messagesTo(email)).length;
    await page.goto('/');
    await page.locator('footer form[data-newsletter-form]').getByLabel('Newsletter email').fill(email);
    await page.locator('footer form[data-newsletter-form]').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    await expect.poll(async () => (await messagesTo(email)).length).toBe(before + 1);
    const again = linkIn(await messageInOutbox(email, 'Confirm your subscription'), '/newsletter/confirm?');
    expect(again.search).not.toBe(confirm.search);
    await page.goto(again.pathname + again.search);
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
    expect(rowsFor(email)).toHaveLength(1);
    expect(rowsFor(email)[0]).toMatchObject({ subscribed: true });
  });

  test('a bad address is named on the page, and nothing is stored', async ({ page }) => {
    await page.goto('/');
    const form = page.locator('footer form[data-newsletter-form]');
    // The browser's own check would stop "not-an-address"; this is what a script or an old browser sends.
    await form.evaluate((element) => element.setAttribute('novalidate', ''));
    await form.getByLabel('Newsletter email').fill('not-an-address');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText('Valid email is required')).toBeVisible();
    await expect(page.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
    expect(rowsFor('not-an-address')).toHaveLength(0);
  });

  test('a cross-site form cannot sign anyone up', async ({ request }) => {
    const email = uniqueEmail();
    const response = await request.post('/newsletter', {
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      data: `email=${encodeURIComponent(email)}`,
    });
    expect(response.status()).toBe(403);
    expect(rowsFor(email)).toHaveLength(0);
  });
});
