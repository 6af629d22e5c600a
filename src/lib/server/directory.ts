// Read queries for the public directory, used at build time by pre-rendered
// pages and at request time by endpoints.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { cities, services, spas } from '../../../db/schema.ts';
import { db } from './db.ts';

/** Tier weight, then newest (spec 9: ELITE 3, PREMIUM 2, FREE 1). */
export const tierOrder = [
  desc(sql`case ${spas.tier} when 'ELITE' then 3 when 'PREMIUM' then 2 else 1 end`),
  desc(spas.createdAt),
];

export function listCities() {
  return db.select().from(cities).where(eq(cities.active, true)).orderBy(asc(cities.id)).all();
}

export function getCity(slug: string) {
  return db.select().from(cities).where(eq(cities.slug, slug)).get() ?? null;
}

export function listActiveSpas() {
  return db
    .select({ spa: spas, city: { name: cities.name, slug: cities.slug } })
    .from(spas)
    .innerJoin(cities, eq(spas.cityId, cities.id))
    .where(eq(spas.active, true))
    .orderBy(...tierOrder)
    .all();
}

export function listSpasInCity(cityId: number) {
  return db
    .select()
    .from(spas)
    .where(and(eq(spas.cityId, cityId), eq(spas.active, true)))
    .orderBy(...tierOrder)
    .all();
}

export function listSpaServices(spaId: number) {
  return db
    .select()
    .from(services)
    .where(and(eq(services.spaId, spaId), eq(services.active, true)))
    .orderBy(asc(services.category), asc(services.name))
    .all();
}
