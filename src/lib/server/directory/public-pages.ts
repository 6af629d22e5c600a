// Every public page search engines should index, in one place: sitemap.xml and
// the tests read it. A placeholder (noindex) page, a private screen, or a
// treatment landing page with no provider is not listed.
import { treatments } from '#content/site.ts';
import { countSpasInCity, listActiveSpas, listCities, listOffers } from './directory.ts';

export interface PublicPage {
  path: string;
  lastModified?: Date;
  changeFrequency: 'daily' | 'weekly' | 'monthly' | 'yearly';
  priority: number;
}

export function publicPages(): PublicPage[] {
  const pages: PublicPage[] = [
    { path: '/', changeFrequency: 'daily', priority: 1 },
    { path: '/search-results', changeFrequency: 'daily', priority: 0.9 },
    { path: '/services', changeFrequency: 'weekly', priority: 0.8 },
    { path: '/offers', changeFrequency: 'daily', priority: 0.8 },
    { path: '/sitemap', changeFrequency: 'weekly', priority: 0.3 },
    { path: '/privacy-policy', changeFrequency: 'yearly', priority: 0.2 },
    { path: '/terms-of-service', changeFrequency: 'yearly', priority: 0.2 },
  ];
  for (const city of listCities()) {
    pages.push({ path: `/cities/${city.slug}`, changeFrequency: 'weekly', priority: 0.8 });
    for (const treatment of treatments) {
      if (countSpasInCity(city.id, treatment.slug) > 0) {
        pages.push({ path: `/cities/${city.slug}/${treatment.slug}`, changeFrequency: 'weekly', priority: 0.7 });
      }
    }
  }
  for (const { spa } of listActiveSpas()) {
    pages.push({ path: `/spas/${spa.slug}`, lastModified: spa.updatedAt, changeFrequency: 'weekly', priority: 0.7 });
  }
  for (const offer of listOffers()) {
    pages.push({ path: `/offers/${offer.slug}`, changeFrequency: 'weekly', priority: 0.5 });
  }
  return pages;
}
