import type { APIRoute } from 'astro';
import { listActiveSpaCards } from '#lib/server/directory/directory.ts';
import { json } from '#lib/server/http.ts';
import { spaJson } from '#lib/server/serialize.ts';

export const prerender = false;

export const GET: APIRoute = () => json(listActiveSpaCards().map(spaJson));
