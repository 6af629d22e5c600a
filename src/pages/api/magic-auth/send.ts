import { magicLinkEndpoint } from '#lib/server/auth/magic-link-endpoint.ts';

export const prerender = false;

export const POST = magicLinkEndpoint('owner');
