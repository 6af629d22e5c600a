import type { APIRoute } from 'astro';
import { getService } from '#lib/server/directory/directory.ts';
import { parseId } from '#lib/ids.ts';
import { json, notFound } from '#lib/server/http.ts';
import { serviceJson } from '#lib/server/serialize.ts';

export const prerender = false;

export const GET: APIRoute = ({ params }) => {
  const id = parseId(params.id);
  const service = id === null ? undefined : getService(id);
  if (!service) return notFound('Service');
  return json(serviceJson(service));
};
