// The signed-in user as the islands see it, looked up once per page (spec 4:
// the lookup is not retried) and shared by the navigation islands.
import { atom } from 'nanostores';
import type { Role } from '#lib/role-links.ts';
import { SIGNED_IN_HINT_COOKIE } from '#lib/session-cookie.ts';

export interface NavUser {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  role?: Role;
}

export type UserState = { status: 'loading' } | { status: 'signed-in'; user: NavUser } | { status: 'signed-out' };

export const $user = atom<UserState>({ status: 'loading' });

let started = false;

export function loadUser(): void {
  if (started) return;
  started = true;
  fetch('/api/auth/user', { credentials: 'include', headers: { Accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(String(response.status));
      $user.set({ status: 'signed-in', user: (await response.json()) as NavUser });
    })
    .catch(() => {
      // The hint cookie was stale (expired or revoked session): forget it.
      document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
      $user.set({ status: 'signed-out' });
    });
}
