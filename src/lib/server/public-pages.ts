// Every public page search engines should index, in one place: sitemap.xml and
// the tests read it. A page that is still a placeholder (noindex) is not listed.
import { listActiveSpas, listCities } from './directory.ts';

export interface PublicPage {
  path: string;
  lastModified?: Date;
  changeFrequency: 'daily' | 'weekly' | 'monthly' | 'yearly';
  priority: number;
}

export function publicPages(): PublicPage[] {
  const pages: PublicPage[] = [
    { path: '/', changeFrequency: 'daily', priority: 1 },
    { path: '/sitemap', changeFrequency: 'weekly', priority: 0.3 },
    { path: '/privacy-policy', changeFrequency: 'yearly', priority: 0.2 },
    { path: '/terms-of-service', changeFrequency: 'yearly', priority: 0.2 },
  ];
  for (const city of listCities()) {
    pages.push({ path: `/cities/${city.slug}`, changeFrequency: 'weekly', priority: 0.8 });
  }
  for (const { spa } of listActiveSpas()) {
    pages.push({ path: `/spas/${spa.slug}`, lastModified: spa.updatedAt, changeFrequency: 'weekly', priority: 0.7 });
  }
  return pages;
}
