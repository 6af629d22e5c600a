import type { APIRoute } from 'astro';
import { requireApiUser } from '#lib/server/auth/auth.ts';
import { json } from '#lib/server/http.ts';

export const prerender = false;

export const GET: APIRoute = (context) => {
  const user = requireApiUser(context);
  return user instanceof Response ? user : json({ email: user.email });
};
