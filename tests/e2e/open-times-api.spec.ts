// Booking open times through the served site (issue 24): the slots endpoint,
// no double booking under concurrency (two server processes on one database
// file, 200 clients at once), and every forged post refused with 422 and no
// row written. Each concurrent request comes from its own client address
// (TRUST_PROXY=1 and its own X-Forwarded-For) and e-mail, so the per-client
// and per-address booking limits do not mask the result.
import { request as requests, type APIRequestContext } from '@playwright/test';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { bookings, clinicianTimeOff, clinicians, leads, rateLimits, services, spas } from '#db/schema.ts';
import { withTablesAt } from '../support/database.ts';
import { baseURL, databasePath } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { forgetLoopbackLimits } from '../support/limits.ts';
import { copyPort, startServerCopy, type ServerCopy } from '../support/server-copy.ts';

interface OpenTimes {
  spa: { id: number; name: string; mode: string };
  service: { id: number; name: string; duration: number };
  timeZone: string;
  from: string;
  next: string;
  nextAvailable: { start: string; label: string } | null;
  clinicians: { id: number; name: string }[];
  dates: { date: string; label: string; times: { start: string; label: string; clinicianIds: number[] }[] }[];
}

const TAG = `e2e-open-${Date.now()}`;
let sent = 0;
const person = () => ({ name: 'Concurrent Client', email: `${TAG}-${++sent}@example.com` });

/** A demo spa's service, by names, in the database at `path`. */
function serviceOf(path: string, spaSlug: string, name: string) {
  const row = withTablesAt(path, (db) =>
    db
      .select({ spaId: services.spaId, id: services.id, duration: services.duration, buffer: services.bufferAfterMinutes })
      .from(services)
      .innerJoin(spas, eq(spas.id, services.spaId))
      .where(and(eq(spas.slug, spaSlug), eq(services.name, name)))
      .get(),
  );
  if (!row) throw new Error(`no service ${spaSlug}/${name}`);
  return row;
}

const slotsOf = async (request: APIRequestContext, origin: string, spaId: number, serviceId: number, days = 28) => {
  const response = await request.get(`${origin}/api/spas/${spaId}/slots?service=${serviceId}&days=${days}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as OpenTimes;
};

/** Every (start, clinician) pair of the answer, soonest first. */
const pairs = (slots: OpenTimes) => slots.dates.flatMap((d) => d.times.flatMap((t) => t.clinicianIds.map((clinicianId) => ({ start: t.start, clinicianId }))));

const bookingsAt = (path: string, spaId: number) =>
  withTablesAt(
    path,
    (db) =>
      db
        .select({ n: count() })
        .from(bookings)
        .where(and(eq(bookings.spaId, spaId), inArray(bookings.status, ['pending', 'confirmed'])))
        .get()!.n,
  );
const leadsAt = (path: string, spaId: number) => withTablesAt(path, (db) => db.select({ n: count() }).from(leads).where(eq(leads.spaId, spaId)).get()!.n);

/** A fresh hour for the spa's own ceiling, as if the test ran an hour after the last. */
const forgetSpaLimit = (path: string, spaId: number) =>
  withTablesAt(
    path,
    (db) =>
      db
        .delete(rateLimits)
        .where(eq(rateLimits.key, `open-time:spa:${spaId}`))
        .run(),
    { write: true },
  );

async function post(api: APIRequestContext, origin: string, spaId: number, body: object, client: string) {
  const response = await api.post(`${origin}/api/spas/${spaId}/bookings`, {
    // Behind a proxy (TRUST_PROXY=1) a browser's Origin is the public one, SITE_URL.
    headers: { Origin: baseURL, 'X-Forwarded-For': client },
    data: body,
  });
  return {
    status: response.status(),
    body: (await response.json()) as {
      error?: { code: string; message: string; fields?: Record<string, string>; details?: { alternatives: { start: string }[] } };
    },
  };
}

test.describe('the slots endpoint', () => {
  test('answers a spa’s open times by Pacific day with ready-made labels, briefly cached, and refuses a bad query', async ({ request }) => {
    const { spaId, id } = serviceOf(databasePath, 'harborlight-aesthetics', 'Botox Cosmetic');
    const response = await request.get(`/api/spas/${spaId}/slots?service=${id}&days=7`);
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('public, max-age=15');
    const slots = (await response.json()) as OpenTimes;
    expect(slots).toMatchObject({
      spa: { id: spaId, name: 'Harborlight Aesthetics', mode: 'instant' },
      service: { id, name: 'Botox Cosmetic' },
      timeZone: 'America/Los_Angeles',
    });
    expect(slots.dates).toHaveLength(7);
    expect(slots.dates[0]!.label).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [A-Z][a-z]+ \d{1,2}$/);
    const first = slots.dates.flatMap((d) => d.times)[0]!;
    expect(first.label).toMatch(/^\d{1,2}:\d{2} (AM|PM)$/);
    expect(slots.nextAvailable).toMatchObject({ start: first.start, label: expect.stringMatching(/ Pacific$/) });
    // The holiday the demo spa closes for (12 days from the seeding day) is beyond this week; every open day has times.
    expect(slots.clinicians.map((c) => c.name).sort()).toEqual(expect.arrayContaining(['Jordan Reyes']));

    for (const [query, field] of [
      ['days=7', 'service'],
      [`service=${id}&days=29`, 'days'],
      [`service=${id}&days=0`, 'days'],
      [`service=${id}&from=2027-02-30`, 'from'],
      [`service=abc`, 'service'],
    ] as const) {
      const bad = await request.get(`/api/spas/${spaId}/slots?${query}`);
      expect(bad.status(), query).toBe(400);
      expect(Object.keys(((await bad.json()) as { error: { fields: object } }).error.fields), query).toContain(field);
    }
    // A service not bookable online, and a spa that takes no online bookings: not found.
    const fraxel = serviceOf(databasePath, 'harborlight-aesthetics', 'Fraxel Dual Laser Resurfacing');
    expect((await request.get(`/api/spas/${spaId}/slots?service=${fraxel.id}`)).status()).toBe(404);
    const requestOnly = withTablesAt(databasePath, (db) =>
      db
        .select({ spaId: services.spaId, id: services.id })
        .from(services)
        .innerJoin(spas, eq(spas.id, services.spaId))
        .where(and(eq(spas.bookingMode, 'none'), eq(spas.active, true)))
        .orderBy(asc(services.id))
        .limit(1)
        .get()!,
    );
    expect((await request.get(`/api/spas/${requestOnly.spaId}/slots?service=${requestOnly.id}`)).status()).toBe(404);
  });
});

test.describe('forged posts', () => {
  test('each time the spa does not give is refused with 422, naming the field, and writes nothing', async ({ request }) => {
    const { spaId, id } = serviceOf(databasePath, 'jacaranda-aesthetic-institute', 'Juvederm Voluma XC');
    const slots = await slotsOf(request, baseURL, spaId, id);
    const open = slots.dates.find((d) => d.times.length > 0)!;
    const closedDay = slots.dates.find((d) => d.times.length === 0 && d.date > open.date);
    const first = open.times[0]!;
    const staff = withTablesAt(databasePath, (db) =>
      db.select({ id: clinicians.id, treatments: clinicians.treatments }).from(clinicians).where(eq(clinicians.spaId, spaId)).all(),
    );
    const notForFillers = staff.find((c) => !c.treatments.includes('fillers'))!;
    // A day off for the clinician who could take the first open time, on that day (removed after the test).
    const off = first.clinicianIds[0]!;
    const timeOff = withTablesAt(
      databasePath,
      (db) =>
        db
          .insert(clinicianTimeOff)
          .values({ clinicianId: off, firstDay: open.date, lastDay: open.date, note: 'e2e' })
          .returning({ id: clinicianTimeOff.id })
          .get(),
      { write: true },
    );
    test.info().annotations.push({ type: 'time off', description: `clinician ${off} on ${open.date}` });
    const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
    forgetLoopbackLimits();
    const before = { bookings: bookingsAt(databasePath, spaId), leads: leadsAt(databasePath, spaId) };
    const forged: [string, object, string][] = [
      ['in the past', { start: at(new Date().toISOString(), -60) }, 'start'],
      ['inside the notice', { start: at(new Date().toISOString(), 30) }, 'start'],
      ['beyond the horizon', { start: at(first.start, 90 * 24 * 60) }, 'start'],
      ['off the grid', { start: at(first.start, 7) }, 'start'],
      ['at 3 AM', { start: `${open.date}T11:00:00.000Z` }, 'start'],
      ...(closedDay ? ([['on a closed day', { start: `${closedDay.date}T18:00:00.000Z` }, 'start']] as [string, object, string][]) : []),
      ['with a clinician who does not perform it', { start: first.start, clinicianId: notForFillers.id }, 'clinicianId'],
      ['with a clinician on their day off', { start: first.start, clinicianId: off }, 'clinicianId'],
      ['without a name', { start: first.start, name: '' }, 'name'],
    ];
    try {
      for (const [what, fields, field] of forged) {
        const answer = await post(request, baseURL, spaId, { ...person(), serviceId: id, ...fields }, `10.24.0.${++sent % 250}`);
        expect(answer.status, what).toBe(422);
        expect(Object.keys(answer.body.error?.fields ?? {}), what).toContain(field);
      }
    } finally {
      withTablesAt(databasePath, (db) => db.delete(clinicianTimeOff).where(eq(clinicianTimeOff.id, timeOff.id)).run(), { write: true });
    }
    expect({ bookings: bookingsAt(databasePath, spaId), leads: leadsAt(databasePath, spaId) }).toEqual(before);
  });

  test('a post from another origin is refused before anything is read', async () => {
    const { spaId, id } = serviceOf(databasePath, 'jacaranda-aesthetic-institute', 'Botox Cosmetic');
    const response = await fetch(`${baseURL}/api/spas/${spaId}/bookings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: JSON.stringify({ ...person(), serviceId: id, start: new Date().toISOString() }),
    });
    expect(response.status).toBe(403);
  });
});

test.describe('no double booking, two server processes on one database', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 });
  let first: ServerCopy;
  let second: ServerCopy;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const settings = { TRUST_PROXY: '1' };
    first = await startServerCopy(copyPort(2), settings);
    second = await startServerCopy(copyPort(3), settings, { dir: first.dir });
  });
  test.afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
  });

  /**
   * Sends every body at once, alternating between the two processes, each from its own address,
   * on connections of the burst's own: a kept-alive socket left from the burst before could be
   * closed by the server (keepAliveTimeout) just as it was reused, a reset no booking caused.
   */
  const burst = async (spaId: number, bodies: object[]) => {
    const api = await requests.newContext();
    try {
      return await Promise.all(bodies.map((body, i) => post(api, i % 2 ? second.url : first.url, spaId, body, `10.${100 + (i >> 8)}.${i & 255}.7`)));
    } finally {
      await api.dispose();
    }
  };

  test('200 attempts on one open time: exactly 1 succeeds, 199 get 409 "That time was just taken" with fresh alternatives', async ({ request }) => {
    const { spaId, id } = serviceOf(first.databasePath, 'harborlight-aesthetics', 'Botox Cosmetic');
    forgetSpaLimit(first.databasePath, spaId);
    const target = pairs(await slotsOf(request, first.url, spaId, id))[0]!;
    const before = bookingsAt(first.databasePath, spaId);
    const answers = await burst(
      spaId,
      Array.from({ length: 200 }, () => ({ ...person(), serviceId: id, ...target })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(199);
    for (const answer of refused) {
      expect(answer.body.error?.message).toBe('That time was just taken');
      expect(answer.body.error?.code).toBe('slot_taken');
      expect(answer.body.error?.details?.alternatives.length).toBeGreaterThan(0);
      expect(answer.body.error!.details!.alternatives.map((a) => a.start)).not.toContain(target.start);
    }
    expect(bookingsAt(first.databasePath, spaId)).toBe(before + 1);
    expect(
      withTablesAt(
        first.databasePath,
        (db) =>
          db
            .select({ n: count() })
            .from(bookings)
            .where(and(eq(bookings.clinicianId, target.clinicianId), eq(bookings.scheduledAt, new Date(target.start))))
            .get()!.n,
      ),
    ).toBe(1);
  });

  test('200 attempts on 200 different open times: all 200 succeed, and no clinician or room is booked twice', async ({ request }) => {
    const { spaId, id, duration, buffer } = serviceOf(first.databasePath, 'harborlight-aesthetics', 'Botox Cosmetic');
    forgetSpaLimit(first.databasePath, spaId);
    // Times that do not overlap one another: per clinician, each after the last one's treatment and buffer.
    const busyUntil = new Map<number, number>();
    const chosen: { start: string; clinicianId: number }[] = [];
    for (const pair of pairs(await slotsOf(request, first.url, spaId, id))) {
      const start = Date.parse(pair.start);
      if (start < (busyUntil.get(pair.clinicianId) ?? 0) || chosen.some((c) => c.start === pair.start)) continue;
      busyUntil.set(pair.clinicianId, start + (duration + buffer) * 60_000);
      chosen.push(pair);
      if (chosen.length === 200) break;
    }
    expect(chosen).toHaveLength(200);
    const before = bookingsAt(first.databasePath, spaId);
    const answers = await burst(
      spaId,
      chosen.map((pair) => ({ ...person(), serviceId: id, ...pair })),
    );
    expect(answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${a.body.error?.message}`)).toEqual([]);
    expect(bookingsAt(first.databasePath, spaId)).toBe(before + 200);
    // Every pair of the spa's live bookings with times, compared here: a clinician or a room (when either is set) booked twice over.
    const held = withTablesAt(first.databasePath, (db) =>
      db
        .select({
          scheduledAt: bookings.scheduledAt,
          endsAt: bookings.endsAt,
          bufferMinutes: bookings.bufferMinutes,
          clinicianId: bookings.clinicianId,
          room: bookings.room,
        })
        .from(bookings)
        .where(and(eq(bookings.spaId, spaId), inArray(bookings.status, ['pending', 'confirmed'])))
        .all()
        .filter((b) => b.scheduledAt !== null && b.endsAt !== null)
        .map((b) => ({ ...b, start: b.scheduledAt!.getTime(), freeAt: b.endsAt!.getTime() + b.bufferMinutes * 60_000 })),
    );
    const overlaps = held.flatMap((a, i) =>
      held
        .slice(i + 1)
        .filter(
          (b) =>
            a.start < b.freeAt && b.start < a.freeAt && ((a.clinicianId !== null && a.clinicianId === b.clinicianId) || (a.room !== null && a.room === b.room)),
        ),
    ).length;
    expect(overlaps).toBe(0);
  });
});
