import type { APIRoute } from 'astro';

export const prerender = false;

// /spa/{slug} is an old address of the spa page (rulings): a permanent redirect.
export const GET: APIRoute = ({ params, redirect }) => redirect(`/spas/${encodeURIComponent(params.slug ?? '')}`, 301);
