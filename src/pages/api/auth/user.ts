import type { APIRoute } from 'astro';
import { requireApiUser } from '#lib/server/auth/auth.ts';
import { json } from '#lib/server/http.ts';

export const prerender = false;

export const GET: APIRoute = (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  const { id, email, firstName, lastName, profileImageUrl, role } = user;
  // The role too: the account menus lead owners and editors to their own pages.
  return json({ id, email, firstName, lastName, profileImageUrl, role });
};
