// PATCH /api/leads/{id}: the spa's owner (or an admin) moves a lead along:
// new -> contacted -> converted or lost.
import type { APIRoute } from 'astro';
import { leadChangeSchema } from '#lib/booking-schema.ts';
import { requireApiUser } from '#lib/server/auth/auth.ts';
import { changeLeadStatus } from '#lib/server/bookings/bookings.ts';
import { readPatch, refusalResponse, resultResponse } from '#lib/server/http.ts';

export const prerender = false;

export const PATCH: APIRoute = async (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  const patch = await readPatch(context, 'Lead', leadChangeSchema, 1_024);
  if (!patch.ok) return refusalResponse(patch);
  return resultResponse(changeLeadStatus(patch.value.id, patch.value.change.status, user));
};
