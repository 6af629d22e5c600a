import { magicLinkEndpoint } from '../../../lib/server/magic-link-endpoint.ts';

export const prerender = false;

export const POST = magicLinkEndpoint('client');
