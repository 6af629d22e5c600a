/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The signed-in user, resolved by src/middleware.ts; null when signed out. */
    user: import('#lib/server/auth/sessions.ts').SessionUser | null;
    session: import('#lib/server/auth/sessions.ts').Session | null;
  }
}
