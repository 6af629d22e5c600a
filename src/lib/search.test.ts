import { describe, expect, it } from 'vitest';
import { canonicalSearchUrl, knownTreatmentName, parseSearchParams, searchUrl, treatmentOptions } from './search.ts';

const parse = (query: string) => parseSearchParams(new URLSearchParams(query));

describe('search query', () => {
  it('treats empty, all-services and all-cities as no filter', () => {
    expect(parse('').data).toEqual({ page: 1 });
    expect(parse('service=all-services&city=all-cities').data).toEqual({ page: 1 });
    expect(parse('service=&city=').data).toEqual({ page: 1 });
  });

  it('normalises and keeps real filters', () => {
    expect(parse('service=Botox&city=Irvine&tier=premium&featured=true&page=2').data).toEqual({
      service: 'botox',
      city: 'irvine',
      tier: 'PREMIUM',
      featured: true,
      page: 2,
    });
  });

  it('refuses malformed values with a message per field', () => {
    const result = parse('city=<script>&tier=gold&page=-1');
    expect(result.success).toBe(false);
    const fields = result.error!.issues.map((i) => i.path.join('.'));
    expect(fields).toEqual(expect.arrayContaining(['city', 'tier', 'page']));
    expect(parse(`service=${'x'.repeat(101)}`).success).toBe(false);
  });

  it('builds URLs with only the filters that are chosen', () => {
    expect(searchUrl({})).toBe('/search-results');
    expect(searchUrl({ service: 'all-services', city: 'all-cities' })).toBe('/search-results');
    expect(searchUrl({ service: 'botox' })).toBe('/search-results?service=botox');
    expect(searchUrl({ city: 'irvine', service: 'hydrafacial', page: 2 })).toBe('/search-results?service=hydrafacial&city=irvine&page=2');
  });

  it('offers the spec treatments then the lower-cased service names, once each', () => {
    const options = treatmentOptions(['Botox', 'Signature HydraFacial', 'signature hydrafacial']).map((o) => o.value);
    expect(options.slice(0, 9)).toEqual([
      'all-services',
      'botox',
      'hydrafacial',
      'fillers',
      'laser',
      'coolsculpting',
      'microneedling',
      'chemical-peels',
      'iv-therapy',
    ]);
    expect(options.slice(9)).toEqual(['signature hydrafacial']);
  });
});

describe('canonical search URL', () => {
  it('drops empty and all-... filters, keeps chosen ones', () => {
    const at = (path: string) => canonicalSearchUrl(new URL(path, 'http://x'));
    expect(at('/search-results?service=&city=')).toBe('/search-results');
    expect(at('/search-results?service=botox&city=all-cities')).toBe('/search-results?service=botox');
    expect(at('/search-results?city=irvine&service=botox')).toBe('/search-results?service=botox&city=irvine');
    expect(at('/search-results?service=botox')).toBeNull();
    expect(at('/search-results')).toBeNull();
    expect(at('/search-results?tier=gold')).toBeNull();
  });
});

describe('open times and the heading', () => {
  it('keeps "available this week" and "next available first", and refuses other values', () => {
    expect(parse('available=week&sort=next').data).toEqual({ available: 'week', sort: 'next', page: 1 });
    expect(parse('available=month').success).toBe(false);
    expect(searchUrl({ service: 'botox', available: 'week', sort: 'next' })).toBe('/search-results?service=botox&available=week&sort=next');
  });

  it('names only treatments the directory knows (issue 26: no text from the address in the heading)', () => {
    expect(knownTreatmentName('botox', [])).toBe('Botox');
    expect(knownTreatmentName('signature peel', ['signature peel'])).toBe('Signature peel');
    expect(knownTreatmentName('call 555-0000 for free botox -', ['signature peel'])).toBeUndefined();
  });
});
