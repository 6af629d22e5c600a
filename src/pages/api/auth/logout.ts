import type { APIRoute } from 'astro';
import { json } from '#lib/server/http.ts';
import { signOut } from '#lib/server/auth/auth.ts';

export const prerender = false;

// The owner dashboard's Logout calls this, then goes to /owner/login.
export const POST: APIRoute = (context) => {
  signOut(context);
  return json({ ok: true });
};
