import { expect, type Page } from '@playwright/test';

/** Waits until the named React island has hydrated (Astro drops its `ssr` attribute then). */
export async function hydrated(page: Page, component: string): Promise<void> {
  await expect(page.locator(`astro-island[component-url*="/${component}."]:not([ssr])`).first()).toBeAttached({ timeout: 15_000 });
}
