// How a service is presented (spec 2, Service card; spec 5, complimentary rule; spec 9 labels).
import { centsToDecimal } from './money.ts';

/** Complimentary: price '0.00' or '0', or a name containing 'consultation' (case-insensitive). */
export function isComplimentary(service: { name: string; priceCents: number }): boolean {
  return service.priceCents === 0 || service.name.toLowerCase().includes('consultation');
}

/** "Complimentary", else "From $150.00" (with its unit, "From $14.00 per unit", when it has one). */
export function priceLabel(service: { name: string; priceCents: number; priceUnit?: string | null }): string {
  if (isComplimentary(service)) return 'Complimentary';
  return `From $${centsToDecimal(service.priceCents)}${service.priceUnit ? ` ${service.priceUnit}` : ''}`;
}

export const durationLabel = (minutes: number | null | undefined) => (minutes ? `${minutes} minutes` : 'Duration TBD');

/**
 * The home page's services grid (spec 2, Home): one service per category, the
 * first of each in the order given (best-listed spas first), at most `limit`,
 * preferring spas not shown yet so one spa does not fill the grid.
 */
export function spotlightServices<T extends { category: string; spaId: number }>(services: readonly T[], limit = 6): T[] {
  const byCategory = Map.groupBy(services, (service) => service.category);
  const picked: T[] = [];
  const spas = new Set<number>();
  for (const items of byCategory.values()) {
    if (picked.length >= limit) break;
    const choice = items.find((service) => !spas.has(service.spaId)) ?? items[0]!;
    picked.push(choice);
    spas.add(choice.spaId);
  }
  return picked;
}

/**
 * The directory-wide treatment choice (the home's request form): by category
 * (the select's groups), then by what the option says, "Botox Cosmetic at
 * Glow Spa", so the same treatment at every spa sits together (issue 26: two
 * hundred options in tier order could not be scanned).
 */
export function byCategoryThenName<T extends { category: string; name: string; spaName: string }>(services: readonly T[]): T[] {
  return services.toSorted(
    (a, b) => a.category.localeCompare(b.category, 'en') || `${a.name} at ${a.spaName}`.localeCompare(`${b.name} at ${b.spaName}`, 'en'),
  );
}
