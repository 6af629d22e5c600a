// PATCH /api/leads/{id}: the spa's owner (or an admin) moves a lead along:
// new -> contacted -> converted or lost.
import type { APIRoute } from 'astro';
import { leadChangeSchema } from '#lib/booking-schema.ts';
import { parseId } from '#lib/ids.ts';
import { requireApiUser } from '#lib/server/auth/auth.ts';
import { changeLeadStatus } from '#lib/server/bookings/bookings.ts';
import { apiError, invalid, json, notFound, readJson } from '#lib/server/http.ts';

export const prerender = false;

export const PATCH: APIRoute = async (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  const id = parseId(context.params.id);
  if (id === null) return notFound('Lead');

  const body = await readJson(context.request, 1_024);
  if (!body.ok) return body.response;
  const parsed = leadChangeSchema.safeParse(body.value);
  if (!parsed.success) return invalid(parsed.error, 422);

  const result = changeLeadStatus(id, parsed.data.status, user);
  return result.ok ? json({ id: result.id, status: result.status }) : apiError(result.status, result.code, result.message);
};
