// Test fixture: a user with a live session, made directly in the database the
// way src/lib/server/auth/sessions.ts makes them, so tests of signed-in screens do
// not depend on the e-mail round trip (tests/e2e/auth.spec.ts covers that).
import type { BrowserContext } from '@playwright/test';
import { baseURL, databasePath } from './env.ts';
import { insertSignedInUser, type TestUser } from './session-rows.ts';

export type { TestUser };

/** `path`: another server's database (a test's own server, tests/support/server-copy.ts). */
export function createSignedInUser(fields: { firstName?: string; lastName?: string; role?: 'client' | 'owner' | 'admin' } = {}, path = databasePath): TestUser {
  return insertSignedInUser(path, fields);
}

/** Puts the session (and the signed-in hint) into a browser context. */
export async function signIn(context: BrowserContext, user: TestUser): Promise<void> {
  await context.addCookies([
    { name: 'session', value: user.token, url: baseURL, httpOnly: true, sameSite: 'Lax' },
    { name: 'signed_in', value: '1', url: baseURL, sameSite: 'Lax' },
  ]);
}
