// Search URLs, without the query schema: the filter island imports this, and
// keeping zod out of it keeps the island small.
export const ALL_SERVICES = 'all-services';
export const ALL_CITIES = 'all-cities';

/** The URL for a search, with only the filters that are set (spec 2: set only when chosen). */
export function searchUrl(
  query: { city?: string; service?: string; tier?: string; featured?: boolean; trust?: string; available?: string; sort?: string; page?: number },
  path = '/search-results',
): string {
  const params = new URLSearchParams();
  if (query.service && query.service !== ALL_SERVICES) params.set('service', query.service);
  if (query.city && query.city !== ALL_CITIES) params.set('city', query.city);
  if (query.tier) params.set('tier', query.tier.toLowerCase());
  if (query.featured !== undefined) params.set('featured', String(query.featured));
  if (query.trust) params.set('trust', query.trust);
  if (query.available) params.set('available', query.available);
  if (query.sort) params.set('sort', query.sort);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
