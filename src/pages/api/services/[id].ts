import type { APIRoute } from 'astro';
import { getService } from '#lib/server/directory/directory.ts';
import { apiError, json, notFound } from '#lib/server/http.ts';
import { serviceJson } from '#lib/server/serialize.ts';

export const prerender = false;

export const GET: APIRoute = ({ params }) => {
  const id = /^\d+$/.test(params.id ?? '') ? Number(params.id) : Number.NaN;
  if (!Number.isSafeInteger(id)) {
    return apiError(400, 'invalid_request', 'The service id is not valid.', { id: 'Must be a whole number' });
  }
  const service = getService(id);
  if (!service) return notFound('Service');
  return json(serviceJson(service));
};
