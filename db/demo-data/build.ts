// Builders for the city files: a spa record states only what is its own, and
// the terms every spa shares for a kind of treatment (its category, the page it
// belongs on, what its price is for) are written once, here.
import type { TreatmentSlug } from '#content/site.ts';
import type { ServiceCategory } from '#db/schema.ts';
import { parseDayText, WEEKDAYS, type TimeRange, type Weekday, type WeeklyHours } from '#lib/opening-hours.ts';
import type { DemoService, DemoSpa } from './types.ts';

type Terms = { category: ServiceCategory; treatment?: TreatmentSlug; priceUnit?: string };

/** The kinds of service the demo spas sell, and the terms that come with each. */
const KINDS = {
  consultation: { category: 'consultation' },
  neurotoxin: { category: 'injectable', treatment: 'botox', priceUnit: 'per unit' },
  filler: { category: 'injectable', treatment: 'fillers', priceUnit: 'per syringe' },
  injectable: { category: 'injectable' },
  hydrafacial: { category: 'facial', treatment: 'hydrafacial' },
  peel: { category: 'facial', treatment: 'chemical-peels' },
  microneedling: { category: 'facial', treatment: 'microneedling' },
  facial: { category: 'facial' },
  laser: { category: 'laser', treatment: 'laser' },
  'laser-hair-removal': { category: 'laser', treatment: 'laser', priceUnit: 'per session' },
  iv: { category: 'wellness', treatment: 'iv-therapy' },
  wellness: { category: 'wellness' },
  'weight-loss-program': { category: 'wellness', priceUnit: 'per month' },
  coolsculpting: { category: 'body', treatment: 'coolsculpting', priceUnit: 'per area' },
  'body-contouring': { category: 'body', priceUnit: 'per session' },
} as const satisfies Record<string, Terms>;

export type ServiceKind = keyof typeof KINDS;

/**
 * A service as a city file states it: its kind, and the spa's own name, words,
 * price (cents) and length (minutes). `priceUnit` overrides the kind's: another
 * unit, or null where this spa prices the whole treatment.
 */
export type CityService = Pick<DemoService, 'name' | 'description' | 'priceCents' | 'duration'> & { kind: ServiceKind; priceUnit?: string | null };

function fromKind({ kind, priceUnit, ...own }: CityService): DemoService {
  const { priceUnit: usualUnit, ...terms }: Terms = KINDS[kind];
  const unit = priceUnit === undefined ? usualUnit : priceUnit;
  return { ...own, ...terms, ...(unit ? { priceUnit: unit } : {}) };
}

type DaySpan = Weekday | `${Weekday}-${Weekday}`;

/**
 * A week of opening hours (as data, src/lib/opening-hours.ts) from what a sign
 * on the door would say, e.g. `{ 'mon-thu': '9:00 AM – 6:00 PM', fri: '9:00 AM – 5:00 PM' }`:
 * a day not named is closed.
 */
export function openingHours(spans: Partial<Record<DaySpan, string>>): WeeklyHours {
  const days = WEEKDAYS.map(([day]) => day);
  const week = Object.fromEntries(days.map((day) => [day, null])) as Record<Weekday, TimeRange[] | null>;
  for (const [span, time] of Object.entries(spans) as [DaySpan, string][]) {
    const [first, last = first] = span.split('-') as [Weekday, Weekday?];
    const from = days.indexOf(first);
    const to = days.indexOf(last);
    if (to < from) throw new Error(`Opening hours: ${span} runs backwards`);
    const ranges = parseDayText(time);
    if (!ranges) throw new Error(`Opening hours: ${span} does not read as hours (${time})`);
    for (const day of days.slice(from, to + 1)) {
      if (week[day] !== null) throw new Error(`Opening hours: ${day} is given twice`);
      week[day] = ranges;
    }
  }
  return Object.fromEntries(days.map((day) => [day, week[day] ?? []])) as unknown as WeeklyHours;
}

type MediaField = 'bookingLink' | 'socialFeedUrl' | 'socialPlatform' | 'videoUrl';

/**
 * A spa as its city file states it: the city is the file's, links it has none
 * of may be left out, and its listing image is its first photo.
 */
export type CitySpa = Omit<DemoSpa, 'citySlug' | MediaField | 'imageUrl' | 'services'> & Partial<Pick<DemoSpa, MediaField>> & { services: CityService[] };

/** The spas of one city, each with no booking link, social feed or video unless it names one. */
export function citySpas(citySlug: string, spas: CitySpa[]): DemoSpa[] {
  return spas.map(({ services, ...spa }) => {
    const [imageUrl] = spa.photos;
    if (imageUrl === undefined) throw new Error(`Demo spa ${spa.slug} has no photo for its listing image`);
    return {
      citySlug,
      bookingLink: null,
      socialFeedUrl: null,
      socialPlatform: null,
      videoUrl: null,
      imageUrl,
      ...spa,
      services: services.map(fromKind),
    };
  });
}

/** The placeholder pictures scripts/generate-images.ts draws (public/images/spas/spa-01.svg to spa-24.svg), by number. */
export function spaPictures(...numbers: number[]): string[] {
  return numbers.map((n) => {
    if (!Number.isInteger(n) || n < 1 || n > 24) throw new Error(`There is no placeholder spa picture ${n}`);
    return `/images/spas/spa-${String(n).padStart(2, '0')}.svg`;
  });
}
