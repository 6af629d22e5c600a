// The rows the availability tests make for themselves in their file's copy of
// the database: a city, a spa with its hours, its services and clinicians.
// A service or clinician is Botox (given by a nurse practitioner) unless the
// test says otherwise, so each test names only what its answers depend on.
import { cities, clinicians, services, spas } from '#db/schema.ts';
import { closedWeek, type Weekday, type WeeklyHours } from '#lib/opening-hours.ts';
import { db } from '../db.ts';

type NewService = typeof services.$inferInsert;
type NewClinician = typeof clinicians.$inferInsert;

/** Open 9:00 AM to 5:00 PM on `days`, closed the rest of the week. */
export const nineToFiveOn = (...days: Weekday[]): WeeklyHours => ({ ...closedWeek(), ...Object.fromEntries(days.map((day) => [day, [['09:00', '17:00']]])) });

export const insertCity = (name: string, slug: string): number => db.insert(cities).values({ name, slug }).returning().get().id;

export const insertSpa = (values: typeof spas.$inferInsert): number => db.insert(spas).values(values).returning().get().id;

export const insertService = (values: Pick<NewService, 'spaId' | 'name'> & Partial<NewService>): number =>
  db
    .insert(services)
    .values({ treatment: 'botox', duration: 30, priceCents: 20_000, category: 'injectable', ...values })
    .returning()
    .get().id;

export const insertClinician = (values: Pick<NewClinician, 'spaId' | 'name' | 'licenseNumber'> & Partial<NewClinician>): number =>
  db
    .insert(clinicians)
    .values({ role: 'NP', treatments: ['botox'], ...values })
    .returning()
    .get().id;
