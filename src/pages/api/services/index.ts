import type { APIRoute } from 'astro';
import { listServices } from '#lib/server/directory/directory.ts';
import { json } from '#lib/server/http.ts';
import { serviceJson } from '#lib/server/serialize.ts';

export const prerender = false;

export const GET: APIRoute = () => json(listServices().map(serviceJson));
