// GET /api/spas/{id}/services: the spa's name and bookable services, for the
// request form on /booking?spa={id} (a pre-rendered page that learns the spa
// only from the address).
import type { APIRoute } from 'astro';
import { parseId } from '#lib/ids.ts';
import { findListedSpa, listSpaServices } from '#lib/server/directory/directory.ts';
import { notFound } from '#lib/result.ts';
import { json, refusalResponse } from '#lib/server/http.ts';
import { priceLabel } from '#lib/services.ts';

export const prerender = false;

export const GET: APIRoute = ({ params }) => {
  const id = parseId(params.id);
  const spa = id === null ? undefined : findListedSpa(id);
  if (!spa) return refusalResponse(notFound('Spa not found.'));
  const services = listSpaServices(spa.id).map((service) => ({ id: service.id, name: service.name, priceLabel: priceLabel(service) }));
  return json({ ...spa, services });
};
