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

/** The site's own scripts (Astro's bundles under /_astro/): the islands come with them. */
export const siteScript = (url: URL) => url.pathname.startsWith('/_astro/') && url.pathname.endsWith('.js');

/** Blocks the site's scripts: the page as a visitor without JavaScript gets it. */
export const blockSiteScripts = (page: Page) => page.route(siteScript, (route) => route.abort());

/** Holds the site's scripts until the returned `release` is called: the page as it is before its islands are live. */
export async function holdSiteScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(siteScript, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}
