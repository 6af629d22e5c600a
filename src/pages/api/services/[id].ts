import type { APIRoute } from 'astro';
import { getService } from '#lib/server/directory/directory.ts';
import { parseId } from '#lib/ids.ts';
import { notFound } from '#lib/result.ts';
import { json, refusalResponse } from '#lib/server/http.ts';
import { serviceJson } from '#lib/server/serialize.ts';

export const prerender = false;

export const GET: APIRoute = ({ params }) => {
  const id = parseId(params.id);
  const service = id === null ? undefined : getService(id);
  if (!service) return refusalResponse(notFound('Service not found.'));
  return json(serviceJson(service));
};
