// The search query of /search-results, /client/* and /api/spas/search: one
// schema, shared by the page, the filter island and the endpoint.
import { z } from 'zod';
import { treatments } from '#content/site.ts';

import { ALL_CITIES, ALL_SERVICES, searchUrl } from './search-url.ts';

export { ALL_CITIES, ALL_SERVICES, searchUrl };
export const RESULTS_PER_PAGE = 12;

/** Empty, "all-services" and "all-cities" all mean "no filter" (spec 2, Member home). */
const filter = (all: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .max(100, 'Must be at most 100 characters')
    .optional()
    .transform((value) => (value && value !== all ? value : undefined));

export const searchQuerySchema = z.object({
  city: filter(ALL_CITIES).pipe(
    z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Must be a city slug such as newport-beach')
      .optional(),
  ),
  service: filter(ALL_SERVICES),
  tier: z
    .enum(['free', 'premium', 'elite'], { message: 'Must be free, premium or elite' })
    .optional()
    .transform((tier) => tier?.toUpperCase() as 'FREE' | 'PREMIUM' | 'ELITE' | undefined),
  featured: z
    .enum(['true', 'false'], { message: 'Must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
  // Who treats you (issue 14): a medical director listed, or every licence checked.
  trust: z.enum(['director', 'checked'], { message: 'Must be director or checked' }).optional(),
  // Open times (issue 24): only spas with an open time in the next 7 days; soonest open time first.
  available: z.enum(['week'], { message: 'Must be week' }).optional(),
  sort: z.enum(['next'], { message: 'Must be next' }).optional(),
  page: z.coerce.number({ message: 'Must be a whole number' }).int('Must be a whole number').min(1).max(10_000).default(1),
});

export type SearchQuery = z.output<typeof searchQuerySchema>;

export function parseSearchParams(params: URLSearchParams) {
  const raw: Record<string, string> = {};
  for (const key of ['city', 'service', 'tier', 'featured', 'trust', 'available', 'sort', 'page']) {
    const value = params.get(key);
    if (value !== null && value !== '') raw[key] = value;
  }
  return searchQuerySchema.safeParse(raw);
}

/** The treatment filter's options: the spec's list, then the lower-cased service names. */
export function treatmentOptions(serviceNames: string[]): { value: string; label: string }[] {
  const options = [{ value: ALL_SERVICES, label: 'All treatments' }, ...treatments.map((t) => ({ value: t.slug, label: t.name }))];
  const seen = new Set(options.map((o) => o.value));
  for (const name of serviceNames) {
    const value = name.toLowerCase();
    if (!seen.has(value)) {
      seen.add(value);
      options.push({ value, label: name });
    }
  }
  return options;
}

export const treatmentName = (slug: string) => treatments.find((t) => t.slug === slug)?.name;

/**
 * What a search's heading may say the treatment is: the spec's treatment
 * name, or the name of a service the directory lists; anything else typed
 * into the address is not echoed (issue 26: no "call 555-0000" headings).
 */
export function knownTreatmentName(term: string, serviceNames: readonly string[]): string | undefined {
  const listed = treatmentName(term);
  if (listed) return listed;
  return serviceNames.includes(term) ? term.charAt(0).toUpperCase() + term.slice(1) : undefined;
}

/**
 * The clean URL of a search, or null when the request already uses it. A plain
 * form sends empty and "all-..." values; redirecting to the clean URL keeps
 * service and city in the address only when they were chosen (spec 2, Home).
 */
export function canonicalSearchUrl(url: URL): string | null {
  const parsed = parseSearchParams(url.searchParams);
  if (!parsed.success) return null;
  const clean = searchUrl(parsed.data, url.pathname);
  return clean === url.pathname + url.search ? null : clean;
}
