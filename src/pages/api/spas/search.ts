import type { APIRoute } from 'astro';
import { parseSearchParams } from '#lib/search.ts';
import { searchSpas } from '#lib/server/directory/directory.ts';
import { fieldErrors, malformed } from '#lib/result.ts';
import { json, refusalResponse } from '#lib/server/http.ts';
import { spaJson } from '#lib/server/serialize.ts';

export const prerender = false;

// The spec's answer is a list of spas, so the body stays an array and paging
// travels in headers.
export const GET: APIRoute = ({ url }) => {
  const query = parseSearchParams(url.searchParams);
  // A query the search cannot read is a bad request (400), not a refused form.
  if (!query.success) return refusalResponse(malformed('Some fields are not valid.', { code: 'invalid_request', fields: fieldErrors(query.error) }));
  const result = searchSpas(query.data);
  return json(result.spas.map(spaJson), 200, {
    'X-Total-Count': String(result.total),
    'X-Page': String(result.page),
    'X-Pages': String(result.pages),
  });
};
