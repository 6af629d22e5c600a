// Watching a page for Content-Security-Policy violations, shared by
// tests/e2e/content-security.spec.ts and tests/e2e-payments/content-security.spec.ts.
import { expect, type Page } from '@playwright/test';

/** Records every violation the page reports, from its first script on. */
export async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) console.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber} (${event.sample})`);
    });
  });
  // Without JavaScript (or on another origin) only the console speaks.
  return async () => [
    ...console,
    ...((await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations).catch(() => undefined)) ?? []),
  ];
}

/** Loads the page, lets every island wake (scrolling to the end, using the first form field), and returns the violations. */
export async function visit(page: Page, path: string, expectedStatus = 200): Promise<string[]> {
  const violations = await watchViolations(page);
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(expectedStatus);
  const policy = response!.headers()['content-security-policy'];
  expect(policy, `${path} has a Content-Security-Policy header`).toBeTruthy();
  expect(policy).toContain("frame-ancestors 'none'");
  const scriptSrc = policy!.split(';').find((d) => d.trim().startsWith('script-src'))!;
  expect(scriptSrc).not.toContain('unsafe-inline');
  expect(scriptSrc).not.toContain('unsafe-eval');
  // A <meta> policy would be a second, weaker copy (it cannot say frame-ancestors).
  await expect(page.locator('meta[http-equiv="content-security-policy" i]')).toHaveCount(0);
  await page.waitForLoadState('load');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const field = page.locator('main form input:not([type=hidden]):visible').first();
  if (await field.count()) await field.focus();
  // Islands that wake by themselves (load, idle) have woken; the others wait for a visitor by design.
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr][client="load"], astro-island[ssr][client="idle"]').length === 0, undefined, {
    timeout: 15_000,
  });
  await page.waitForTimeout(300); // late violations (an island's own requests) arrive as events too
  return violations();
}
