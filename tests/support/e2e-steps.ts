// Steps several end-to-end specs take the same way: holding a request to see
// the state a page shows while it waits, opening the mobile menu, posting a
// form and reading the answer, opening a signed-in browser context, and giving
// a block of tests a server of its own (./server-copy.ts).
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type PlaywrightWorkerArgs,
  type Request,
} from '@playwright/test';
import type { SettingName } from '#server/env.ts';
import { copyPort, startServerCopy, type ServerCopy } from './server-copy.ts';
import { signIn, type TestUser } from './sessions.ts';

/**
 * Holds every request matching `url` until the returned function is called,
 * so a test can look at the page's waiting state (a spinner, a disabled button)
 * before the answer arrives. `onRequest` sees each request as it is held.
 */
export async function holdRequests(page: Page, url: string | RegExp, onRequest?: (request: Request) => void): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    onRequest?.(route.request());
    await held;
    await route.continue();
  });
  return release;
}

/** Opens `path` on a narrow screen and its menu sheet, once the menu's script is ready; the sheet. */
export async function openMobileMenu(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('[data-menu-ready]')).toBeAttached();
  await page.getByRole('button', { name: 'Open menu' }).click();
  return page.getByRole('dialog', { name: 'Menu' });
}

/** Clicks the button named `name` and returns the answer to the POST it sends (a form without JavaScript). */
export async function submitForm(page: Page, name: string | RegExp) {
  const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name }).click()]);
  return response;
}

/** A new browser context (with `options`) in which `user` is signed in. */
export async function signedInContext(browser: Browser, user: TestUser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await signIn(context, user);
  return context;
}

/**
 * Gives the enclosing test.describe a server copy of its own, on the suite's
 * port plus `offset`, with `settings` (and startServerCopy's `options`): started before its first test and
 * stopped after its last. Its tests run one after another (one worker), since
 * one copy listens on the port. Returns the copy (there once beforeAll has run).
 */
export function serverCopyForBlock(
  offset: number,
  settings: Partial<Record<SettingName, string>>,
  options: Parameters<typeof startServerCopy>[2] = {},
): () => ServerCopy {
  test.describe.configure({ mode: 'serial' });
  let server: ServerCopy | undefined;
  test.beforeAll(async () => {
    server = await startServerCopy(copyPort(offset), settings, options);
  });
  test.afterAll(() => server?.stop());
  return () => server!;
}

/** Runs `work` with a request context on the server copy, and disposes of the context after, whatever happens. */
export async function askServerCopy<T>(
  playwright: PlaywrightWorkerArgs['playwright'],
  server: ServerCopy,
  work: (api: APIRequestContext) => Promise<T>,
): Promise<T> {
  const api = await playwright.request.newContext({ baseURL: server.url });
  try {
    return await work(api);
  } finally {
    await api.dispose();
  }
}
