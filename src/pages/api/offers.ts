import type { APIRoute } from 'astro';
import { listOffers, offerServiceIds } from '#lib/server/directory/directory.ts';
import { json } from '#lib/server/http.ts';
import { offerJson } from '#lib/server/serialize.ts';

export const prerender = false;

export const GET: APIRoute = () => {
  const serviceIds = offerServiceIds();
  return json(listOffers().map((offer) => offerJson(offer, serviceIds.get(offer.id) ?? [])));
};
