// The accessibility scan of the end-to-end specs: axe-core with the WCAG 2.1
// A and AA rules and axe's best practices.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * axe on the page, every spec's way: run in the page itself (legacy mode: no
 * blank page opened to gather frames' results, and our pages have no frames
 * of their own), and only violations reported in full. The same rules run and
 * find the same violations; on /services that is 3-4 s against 34 s.
 */
export const axeBuilder = (page: Page) => new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });

/** The ids of the rules the page (or the part `include` selects) breaks; [] when it is clean. */
export async function axeViolationIds(page: Page, include?: string): Promise<string[]> {
  const builder = axeBuilder(page).withTags(AXE_TAGS);
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations.map((v) => v.id);
}
