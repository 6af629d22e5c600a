import type { APIRoute } from 'astro';
import { signOut } from '../../lib/server/sign-out.ts';

export const prerender = false;

// Sign Out in the navigation is a plain navigation here (spec 4), then home.
export const GET: APIRoute = (context) => {
  signOut(context);
  return context.redirect('/', 303);
};
