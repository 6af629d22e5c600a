import { expect, type Page } from '@playwright/test';

/**
 * Waits until the named React island has hydrated (Astro drops its `ssr` attribute then).
 * An island that hydrates on intent (client:intent) is first shown a pointer over
 * it, as a visitor about to use it would. An island that hydrates on the page's
 * first toast (client:toast, the Toaster) is ready as soon as it is in the page.
 */
export async function hydrated(page: Page, component: string): Promise<void> {
  const island = page.locator(`astro-island[component-url*="/${component}."]`).first();
  const directive = await island.getAttribute('client');
  if (directive === 'toast') return;
  if (directive === 'intent') await island.dispatchEvent('pointerover');
  await expect(page.locator(`astro-island[component-url*="/${component}."]:not([ssr])`).first()).toBeAttached({ timeout: 15_000 });
}
