// Fills the demo directory from db/demo-data/. Deterministic (no randomness;
// dates are relative to the seeding day in Pacific time) and idempotent: every
// row is upserted on its natural key, so seeding twice leaves the same rows.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { addDays, pacificDate } from '#lib/dates.ts';
import type { Db } from './client.ts';
import { demoAnsweredRequests, demoAvailability, demoCities, demoClinicians, demoOffers, demoOwner, demoReviews, demoSpas } from './demo-data/index.ts';
import { bookings, cities, clinicians, clinicianTimeOff, offerServices, offers, reviews, services, spaDateHours, spaPhotos, spas, users } from './schema.ts';

const DAY_MS = 86_400_000;

export interface SeedResult {
  cities: number;
  spas: number;
  services: number;
  offers: number;
  clinicians: number;
  reviews: number;
}

export function seedDemo(db: Db, today: string = pacificDate()): SeedResult {
  const todayMs = Date.parse(`${today}T12:00:00Z`);
  let serviceCount = 0;

  db.transaction((tx) => {
    const cityIds = new Map<string, number>();
    for (const city of demoCities) {
      const values = { ...city, state: 'CA', active: true };
      const [row] = tx.insert(cities).values(values).onConflictDoUpdate({ target: cities.slug, set: values }).returning({ id: cities.id }).all();
      cityIds.set(city.slug, row!.id);
    }

    const serviceIds = new Map<string, number>(); // `${spaSlug}/${serviceName}` -> id
    const spaIds = new Map<string, number>();
    for (const spa of demoSpas) {
      const { services: spaServices, photos, citySlug, createdDaysAgo, ...fields } = spa;
      const cityId = cityIds.get(citySlug);
      if (cityId === undefined) throw new Error(`Spa ${spa.slug} names unknown city ${citySlug}`);
      const createdAt = new Date(todayMs - createdDaysAgo * DAY_MS);
      const values = { ...fields, cityId, active: true, createdAt, updatedAt: createdAt };
      const [row] = tx.insert(spas).values(values).onConflictDoUpdate({ target: spas.slug, set: values }).returning({ id: spas.id }).all();
      const spaId = row!.id;
      spaIds.set(spa.slug, spaId);

      tx.delete(spaPhotos).where(eq(spaPhotos.spaId, spaId)).run();
      photos.forEach((url, position) => {
        tx.insert(spaPhotos)
          .values({ spaId, url, position, alt: `${spa.name}, photo ${position + 1}` })
          .run();
      });

      for (const service of spaServices) {
        const serviceValues = {
          spaId,
          name: service.name,
          description: service.description,
          priceCents: service.priceCents,
          priceUnit: service.priceUnit ?? null,
          duration: service.duration,
          category: service.category,
          treatment: service.treatment ?? null,
          active: true,
        };
        const [serviceRow] = tx
          .insert(services)
          .values(serviceValues)
          .onConflictDoUpdate({ target: [services.spaId, services.name], set: serviceValues })
          .returning({ id: services.id })
          .all();
        serviceIds.set(`${spa.slug}/${service.name}`, serviceRow!.id);
        serviceCount++;
      }
    }

    for (const offer of demoOffers) {
      const { spaSlug, serviceNames, validFromDaysFromToday, validToDaysFromToday, ...fields } = offer;
      const spaId = spaIds.get(spaSlug);
      const spa = demoSpas.find((s) => s.slug === spaSlug);
      if (spaId === undefined || !spa) throw new Error(`Offer ${offer.slug} names unknown spa ${spaSlug}`);
      const values = {
        ...fields,
        spaId,
        cityId: cityIds.get(spa.citySlug)!,
        savingsCents: offer.originalPriceCents - offer.offerPriceCents,
        validFrom: validFromDaysFromToday === null ? null : addDays(today, validFromDaysFromToday),
        validTo: validToDaysFromToday === null ? null : addDays(today, validToDaysFromToday),
        active: true,
      };
      const [row] = tx.insert(offers).values(values).onConflictDoUpdate({ target: offers.slug, set: values }).returning({ id: offers.id }).all();
      tx.delete(offerServices).where(eq(offerServices.offerId, row!.id)).run();
      for (const name of serviceNames) {
        const serviceId = serviceIds.get(`${spaSlug}/${name}`);
        if (serviceId === undefined) throw new Error(`Offer ${offer.slug} names unknown service ${name}`);
        tx.insert(offerServices).values({ offerId: row!.id, serviceId }).run();
      }
    }

    // Past requests the spa answered, keyed on their client's address.
    const answeringSpaId = spaIds.get(demoAnsweredRequests.spaSlug);
    if (answeringSpaId === undefined) throw new Error(`Demo requests name unknown spa ${demoAnsweredRequests.spaSlug}`);
    demoAnsweredRequests.requests.forEach((request, n) => {
      const email = `demo-answered-${n + 1}@example.com`;
      const createdAt = new Date(todayMs - request.daysAgo * DAY_MS);
      const firstAnsweredAt = new Date(createdAt.getTime() + request.answeredAfterHours * 3_600_000);
      const values = {
        spaId: answeringSpaId,
        name: `Demo Client ${n + 1}`,
        email,
        status: request.outcome === 'completed' ? ('completed' as const) : ('cancelled' as const),
        scheduledAt: request.outcome === 'completed' ? new Date(createdAt.getTime() + 3 * DAY_MS) : null,
        firstAnsweredAt,
        createdAt,
        updatedAt: firstAnsweredAt,
      };
      const existing = tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.email, email), eq(bookings.spaId, answeringSpaId)))
        .get();
      if (existing) tx.update(bookings).set(values).where(eq(bookings.id, existing.id)).run();
      else tx.insert(bookings).values(values).run();
    });

    // Who treats you: upserted on (spa, role, licence number).
    for (const clinician of demoClinicians) {
      const { spaSlug, checkedDaysAgo, ...fields } = clinician;
      const spaId = spaIds.get(spaSlug);
      if (spaId === undefined) throw new Error(`Clinician ${clinician.name} names unknown spa ${spaSlug}`);
      const values = { ...fields, spaId, licenseCheckedAt: checkedDaysAgo === null ? null : new Date(todayMs - checkedDaysAgo * DAY_MS) };
      tx.insert(clinicians)
        .values(values)
        .onConflictDoUpdate({ target: [clinicians.spaId, clinicians.role, clinicians.licenseNumber], set: values })
        .run();
    }

    // Spas that publish their availability (issue 24): their rules, dates,
    // services' booking settings, and their clinicians' hours and time off.
    for (const spa of demoAvailability) {
      const spaId = spaIds.get(spa.spaSlug);
      if (spaId === undefined) throw new Error(`Demo availability names unknown spa ${spa.spaSlug}`);
      tx.update(spas)
        .set({
          bookingMode: spa.bookingMode,
          minNoticeMinutes: spa.minNoticeMinutes ?? 120,
          bookingHorizonDays: spa.bookingHorizonDays ?? 60,
          slotStepMinutes: spa.slotStepMinutes ?? 15,
          treatmentRooms: spa.treatmentRooms ?? null,
        })
        .where(eq(spas.id, spaId))
        .run();
      tx.delete(spaDateHours).where(eq(spaDateHours.spaId, spaId)).run();
      for (const date of spa.dates ?? []) {
        tx.insert(spaDateHours)
          .values({ spaId, date: addDays(today, date.daysFromToday), ranges: date.ranges, note: date.note })
          .run();
      }
      for (const [name, settings] of Object.entries(spa.services ?? {})) {
        const serviceId = serviceIds.get(`${spa.spaSlug}/${name}`);
        if (serviceId === undefined) throw new Error(`Demo availability names unknown service ${spa.spaSlug}/${name}`);
        tx.update(services).set(settings).where(eq(services.id, serviceId)).run();
      }
      for (const [name, settings] of Object.entries(spa.clinicians ?? {})) {
        const clinician = tx
          .select({ id: clinicians.id })
          .from(clinicians)
          .where(and(eq(clinicians.spaId, spaId), eq(clinicians.name, name)))
          .get();
        if (!clinician) throw new Error(`Demo availability names unknown clinician ${spa.spaSlug}/${name}`);
        tx.update(clinicians)
          .set({ workingHours: settings.workingHours ?? null })
          .where(eq(clinicians.id, clinician.id))
          .run();
        tx.delete(clinicianTimeOff).where(eq(clinicianTimeOff.clinicianId, clinician.id)).run();
        for (const off of settings.timeOff ?? []) {
          tx.insert(clinicianTimeOff)
            .values({
              clinicianId: clinician.id,
              firstDay: addDays(today, off.fromDaysFromToday),
              lastDay: addDays(today, off.fromDaysFromToday + off.days - 1),
              note: off.note,
            })
            .run();
        }
      }
    }

    // Reviews, each behind a completed booking paid through the site (keyed by
    // the client's address and the spa), so each carries "Verified visit"
    // (docs/decisions/0029). A review is never rewritten (reviews are kept as
    // written, db/migrations), so a second seed leaves it as it is.
    for (const review of demoReviews) {
      const spaId = spaIds.get(review.spaSlug);
      const serviceId = serviceIds.get(`${review.spaSlug}/${review.serviceName}`);
      if (spaId === undefined || serviceId === undefined) throw new Error(`Review by ${review.clientEmail} names an unknown spa or service`);
      const visit = new Date(todayMs - review.visitDaysAgo * DAY_MS);
      const existing = tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.email, review.clientEmail), eq(bookings.spaId, spaId)))
        .get();
      const bookingId =
        existing?.id ??
        tx
          .insert(bookings)
          .values({
            spaId,
            serviceId,
            name: review.clientName,
            email: review.clientEmail,
            status: 'completed',
            scheduledAt: visit,
            paymentStatus: 'paid',
            paymentAmountCents: tx.select({ cents: services.priceCents }).from(services).where(eq(services.id, serviceId)).get()!.cents,
            paidAt: visit,
            createdAt: visit,
            updatedAt: visit,
          })
          .returning({ id: bookings.id })
          .get().id;
      tx.insert(reviews)
        .values({
          bookingId,
          spaId,
          rating: review.rating,
          body: review.body,
          treatment: review.treatment,
          authorName: review.clientName,
          visitMonth: addDays(today, -review.visitDaysAgo).slice(0, 7),
          reply: review.reply,
          repliedAt: review.reply ? new Date(visit.getTime() + 3 * DAY_MS) : null,
          verifiedVisit: true,
          createdAt: new Date(visit.getTime() + 2 * DAY_MS),
        })
        .onConflictDoNothing({ target: reviews.bookingId })
        .run();
    }

    // The demo owner gets their listing only while nobody else owns it.
    const { spaSlug, ...owner } = demoOwner;
    const [ownerRow] = tx
      .insert(users)
      .values({ ...owner, role: 'owner' })
      .onConflictDoUpdate({ target: users.email, set: { firstName: owner.firstName, lastName: owner.lastName } })
      .returning({ id: users.id })
      .all();
    tx.update(spas)
      .set({ ownerId: ownerRow!.id })
      .where(and(eq(spas.slug, spaSlug), isNull(spas.ownerId)))
      .run();
  });

  return {
    cities: demoCities.length,
    spas: demoSpas.length,
    services: serviceCount,
    offers: demoOffers.length,
    clinicians: demoClinicians.length,
    reviews: demoReviews.length,
  };
}

/** True when the directory has no spas yet: `npm start` seeds only then. */
export function isEmpty(db: Db): boolean {
  const row = db
    .select({ n: sql<number>`count(*)` })
    .from(spas)
    .get();
  return (row?.n ?? 0) === 0;
}
