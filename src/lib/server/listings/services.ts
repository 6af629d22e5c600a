// A spa's services as its owner (or an editor) manages them at
// /owner/spas/{id}/services: add, edit, deactivate and bring back. Prices are
// all-in (SB 478) in cents, with a unit where one applies. A deactivated
// service leaves the public pages and search but keeps its bookings.
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { services } from '#db/schema.ts';
import { SERVICE_FIELDS, serviceFromForm, serviceSchema, formFieldOf } from '#lib/listing-schema.ts';
import { centsToDecimal } from '#lib/money.ts';
import { conflict, invalid, notFound, ok, type Result } from '#lib/result.ts';
import { db } from '../db.ts';
import { findOfSpa, ofSpa } from '../db-helpers.ts';

export type ServiceRow = typeof services.$inferSelect;
/** The saved item's id; refused as not_found (not the spa's), invalid, forbidden (a tier rule) or conflict (a name or address taken), with the fields. */
export type CatalogResult = Result<{ id: number }, 'not_found' | 'invalid' | 'forbidden' | 'conflict'>;

export const SERVICE_NAME_TAKEN = 'This spa already lists a service with this name.';

/** Every service of the spa, active ones first. */
export function listOwnerServices(spaId: number): ServiceRow[] {
  return db.select().from(services).where(eq(services.spaId, spaId)).orderBy(desc(services.active), asc(services.category), asc(services.name)).all();
}

export function findOwnerService(spaId: number, serviceId: number | null): ServiceRow | null {
  return findOfSpa(db, services, spaId, serviceId);
}

/** A stored service as the form shows it. */
export function serviceFormValues(service: ServiceRow | null): Record<string, string> {
  return {
    name: service?.name ?? '',
    description: service?.description ?? '',
    price: service ? centsToDecimal(service.priceCents) : '',
    priceUnit: service?.priceUnit ?? '',
    duration: service ? String(service.duration) : '',
    category: service?.category ?? '',
    treatment: service?.treatment ?? '',
  };
}

/** The service form's fields as typed ('' for an absent one). */
export function serviceValuesOf(form: Pick<URLSearchParams, 'get'>): Record<string, string> {
  return Object.fromEntries(SERVICE_FIELDS.map((field) => [field, form.get(field) ?? '']));
}

/** A refused parse's first message per form field. */
export function formFieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[formFieldOf(issue.path.map(String).join('.') || '_')] ??= issue.message;
  return errors;
}

/** Adds a service (serviceId null) or changes one of the spa's own. */
export function saveService(spaId: number, serviceId: number | null, form: Pick<URLSearchParams, 'get'>): CatalogResult {
  const values = serviceValuesOf(form);
  return db.transaction((): CatalogResult => {
    const existing = findOwnerService(spaId, serviceId);
    if (serviceId !== null && !existing) return notFound('That service could not be found.');
    const parsed = serviceSchema.safeParse(serviceFromForm(values));
    if (!parsed.success) return invalid(formFieldErrors(parsed.error.issues));
    const input = parsed.data;
    const clash = db
      .select({ id: services.id })
      .from(services)
      .where(and(eq(services.spaId, spaId), eq(services.name, input.name), serviceId === null ? undefined : ne(services.id, serviceId)))
      .get();
    if (clash) return conflict(SERVICE_NAME_TAKEN, { fields: { name: SERVICE_NAME_TAKEN } });
    if (existing) {
      db.update(services)
        .set({ ...input, updatedAt: new Date() })
        .where(eq(services.id, existing.id))
        .run();
      return ok({ id: existing.id });
    }
    const created = db
      .insert(services)
      .values({ ...input, spaId })
      .returning({ id: services.id })
      .get();
    return ok({ id: created.id });
  });
}

/** Deactivates (hides) or brings back one of the spa's services; false when it is not the spa's. */
export function setServiceActive(spaId: number, serviceId: number | null, active: boolean): boolean {
  if (serviceId === null) return false;
  const result = db
    .update(services)
    .set({ active, updatedAt: new Date() })
    .where(ofSpa(services, serviceId, spaId))
    .run();
  return result.changes > 0;
}
