import type { APIRoute } from 'astro';
import { currentSlugFor } from '#lib/server/listings/editor.ts';
import { SLUG_PATTERN } from '#lib/slug.ts';

export const prerender = false;

// /spa/{slug} is an old address of the spa page (rulings): a permanent
// redirect, straight to the current address when the slug has since moved.
export const GET: APIRoute = ({ params, redirect }) => {
  const slug = params.slug ?? '';
  const moved = SLUG_PATTERN.test(slug) ? currentSlugFor(slug) : null;
  return redirect(`/spas/${encodeURIComponent(moved ?? slug)}`, 301);
};
