// The signed-in user as the islands see it, looked up once per page (spec 4:
// the lookup is not retried) and shared by the navigation islands.
import { atom } from 'nanostores';
import type { Role } from '#lib/role-links.ts';

export interface NavUser {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  role?: Role;
  /** The avatar's letters and the full name when there is a first name (spec 2), from the server (src/pages/api/auth/user.ts). */
  initials: string;
  name: string | null;
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
      // A stale hint (expired or revoked session) is forgotten by the 401 answer itself.
      $user.set({ status: 'signed-out' });
    });
}
