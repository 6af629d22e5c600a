import { MAIL_FROM } from 'astro:env/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cities, services, spas } from '#db/schema.ts';
import { contact } from '#content/site.ts';
import { formatPacificDateTime } from '#lib/dates.ts';
import { bookingCalendarEvent, clientCancelledMail, manageUrl, newRequestMail, requestReceivedMail, statusChangeMail } from './booking-mail.ts';
import { bookingDetails, changeBooking, createBooking, type BookingDetails } from './bookings.ts';
import { db } from '../db.ts';
import { createMailer, type MailMessage } from '../mail/mailer.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { allParts, parseMime, startLoopbackSmtp } from '#tests/support/smtp.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';

const ORIGIN = 'https://ocmedspadirectory.com';
const TAG = testTag('booking-mail-test');
const email = (who: string) => `${TAG}-${who}@example.com`;
const DAY = 86_400_000;

// --- iCalendar reading ---------------------------------------------------------

const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, '');
const icsLines = (ics: string) => unfold(ics).split('\r\n');
/** A property of the VEVENT (not of its VALARM or the VTIMEZONE). */
function eventProperty(ics: string, name: string): string | undefined {
  const lines = icsLines(ics);
  const event = lines.slice(lines.indexOf('BEGIN:VEVENT'), lines.indexOf('BEGIN:VALARM') === -1 ? lines.indexOf('END:VEVENT') : lines.indexOf('BEGIN:VALARM'));
  const line = event.find((candidate) => candidate.startsWith(`${name}:`) || candidate.startsWith(`${name};`));
  return line?.slice(line.indexOf(':') + 1);
}
const calendarMethod = (ics: string) => icsLines(ics).find((line) => line.startsWith('METHOD:'));
/** A mail's invitation as a calendar takes it: the method it is sent with, the file's METHOD line, and the named event properties. */
function invitation(mail: MailMessage, ...names: string[]) {
  const ics = mail.icalEvent!.content;
  return { method: mail.icalEvent!.method, METHOD: calendarMethod(ics), ...Object.fromEntries(names.map((name) => [name, eventProperty(ics, name)])) };
}
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

// --- hand-made details, for the recipients -------------------------------------

function details(
  overrides: {
    booking?: Partial<BookingDetails['booking']>;
    service?: BookingDetails['service'];
    spa?: BookingDetails['spa'];
    cityName?: string | null;
    ownerEmail?: string | null;
  } = {},
): BookingDetails {
  const created = new Date('2026-11-20T18:00:00Z');
  const details: Omit<BookingDetails, 'inbox'> = {
    booking: {
      id: 4242,
      userId: null,
      serviceId: 7,
      spaId: 3,
      name: 'Ana Lopez',
      email: 'ana@example.com',
      phone: null,
      preferredDate: '2026-12-01',
      scheduledAt: null,
      endsAt: null,
      bufferMinutes: 0,
      clinicianId: null,
      room: null,
      bookedVia: 'request',
      message: null,
      status: 'pending',
      stripePaymentIntentId: null,
      paymentStatus: null,
      paymentAmountCents: null,
      paymentEventCreated: null,
      paidAt: null,
      manageToken: 'abcdefghijklmnopqrstuvwxyz234567',
      calendarSequence: 0,
      firstAnsweredAt: null,
      ownerRemindedAt: null,
      protection: 'none',
      secureStatus: null,
      policyPriceCents: null,
      policyWindowHours: null,
      depositCents: null,
      lateCancelFeeCents: null,
      noShowFeeCents: null,
      stripeCustomerId: null,
      stripeSetupIntentId: null,
      stripePaymentMethodId: null,
      noShowAt: null,
      lateCancelledAt: null,
      feeDecision: null,
      feeDecidedAt: null,
      createdAt: created,
      updatedAt: created,
      ...overrides.booking,
    },
    service: overrides.service === undefined ? { id: 7, name: 'Signature HydraFacial', duration: 60, priceCents: 19_900, priceUnit: null } : overrides.service,
    spa:
      overrides.spa === undefined
        ? {
            id: 3,
            name: 'Glow Spa',
            slug: 'glow-spa',
            address: '71 Fortune Drive, Suite 200, Irvine, CA 92618',
            phone: '(949) 555-0111',
            email: 'front-desk@glow.example',
            ownerId: 9,
          }
        : overrides.spa,
    cityName: overrides.cityName === undefined ? 'Irvine' : overrides.cityName,
  };
  // As bookingDetails selects it (db-helpers.ts's spaInbox): the owner's address, else the listing's.
  const ownerEmail = overrides.ownerEmail === undefined ? 'owner@glow.example' : overrides.ownerEmail;
  return { ...details, inbox: ownerEmail ?? details.spa?.email ?? null };
}

const MANAGE_PATH = '/bookings/manage/abcdefghijklmnopqrstuvwxyz234567';

describe('requestReceivedMail (to the client)', () => {
  it('goes to the client with the treatment in the subject and the manage link', () => {
    const mail = requestReceivedMail(details(), ORIGIN);
    expect(mail.to).toBe('ana@example.com');
    expect(mail.subject).toBe('We received your request for Signature HydraFacial');
    expect(mail.text).toContain(`${ORIGIN}${MANAGE_PATH}`);
    expect(mail.html).toContain(`href="${ORIGIN}${MANAGE_PATH}"`);
    expect(mail.text).toContain('Provider: Glow Spa');
    expect(mail.text).toContain('Treatment: Signature HydraFacial');
    expect(mail.text).toContain('Duration: 60 minutes');
    expect(mail.text).toContain('Price: From $199.00');
    expect(mail.text).toContain('Preferred date: December 1, 2026');
    expect(mail.icalEvent).toBeUndefined();
  });

  it('speaks of a consultation when no service was chosen, and of a flexible date', () => {
    const mail = requestReceivedMail(details({ service: null, spa: null, cityName: null, ownerEmail: null, booking: { preferredDate: null } }), ORIGIN);
    expect(mail.subject).toBe('We received your request for a consultation');
    expect(mail.text).toContain('Treatment: Consultation (not chosen yet)');
    expect(mail.text).toContain('Preferred date: Flexible');
    expect(mail.text).toContain('Provider: Orange County Med Spa Directory');
    expect(mail.text).toContain(`${ORIGIN}${MANAGE_PATH}`);
  });

  it('calls a free service complimentary', () => {
    const mail = requestReceivedMail(details({ service: { id: 7, name: 'Skin Consultation', duration: 30, priceCents: 0, priceUnit: null } }), ORIGIN);
    expect(mail.text).toContain('Price: Complimentary');
  });

  it('carries nothing the visitor wrote: the address is not confirmed, so the form must not mail their text to anyone', () => {
    const lure = 'Your account is locked, call +1 555 0100 or visit https://evil.example';
    const mail = requestReceivedMail(details({ booking: { name: lure, message: `Hello from an attacker. ${lure}` } }), ORIGIN);
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toContain('evil.example');
      expect(part).not.toContain('attacker');
      expect(part).not.toContain('locked');
    }
    expect(mail.text).toContain('Thank you. Glow Spa has your request');
  });

  it('builds the manage URL on the given origin', () => {
    expect(manageUrl(details(), 'http://localhost:4321')).toBe(`http://localhost:4321${MANAGE_PATH}`);
  });
});

describe('newRequestMail (to the spa)', () => {
  it('goes to the owner’s address first, with the client as Reply-To', () => {
    const mail = newRequestMail(details({ booking: { phone: '(949) 555-0100', message: 'Sensitive skin.\nMornings only.' } }), ORIGIN);
    expect(mail.to).toBe('owner@glow.example');
    expect(mail.replyTo).toBe('ana@example.com');
    expect(mail.subject).toBe('New booking request from Ana Lopez');
    expect(mail.text).toContain('E-mail: ana@example.com');
    expect(mail.text).toContain('Phone: (949) 555-0100');
    expect(mail.text).toContain('Message:\nSensitive skin.\nMornings only.');
    expect(mail.text).toContain(`${ORIGIN}/owner/dashboard`);
  });

  it('falls back to the spa’s listed address, then to the directory’s', () => {
    expect(newRequestMail(details({ ownerEmail: null }), ORIGIN).to).toBe('front-desk@glow.example');
    const unlisted = details({ ownerEmail: null, spa: { ...details().spa!, email: null } });
    expect(newRequestMail(unlisted, ORIGIN).to).toBe(contact.email);
    expect(newRequestMail(details({ ownerEmail: null, spa: null }), ORIGIN).to).toBe(contact.email);
    expect(contact.email).toBe('info@ocmedspadirectory.com');
  });

  it('says when no phone was given, and never carries the client’s manage link', () => {
    const mail = newRequestMail(details(), ORIGIN);
    expect(mail.text).toContain('Phone: not given');
    expect(mail.text).not.toContain('/bookings/manage/');
    expect(mail.html).not.toContain('abcdefghijklmnopqrstuvwxyz234567');
  });
});

describe('clientCancelledMail (to the spa)', () => {
  it('goes to the same inbox as new requests, with the client as Reply-To', () => {
    const mail = clientCancelledMail(details({ booking: { status: 'cancelled' } }), ORIGIN);
    expect(mail.to).toBe('owner@glow.example');
    expect(mail.replyTo).toBe('ana@example.com');
    expect(mail.subject).toBe('Cancelled by the client: Ana Lopez');
    expect(mail.text).toContain('Ana Lopez cancelled their booking for Signature HydraFacial.');
    expect(mail.text).not.toContain('/bookings/manage/');
    expect(clientCancelledMail(details({ ownerEmail: null }), ORIGIN).to).toBe('front-desk@glow.example');
    expect(clientCancelledMail(details({ ownerEmail: null, spa: null }), ORIGIN).to).toBe(contact.email);
  });
});

describe('statusChangeMail (to the client)', () => {
  const at = new Date('2026-12-01T22:30:00Z');
  const confirmed = (sequence = 1) =>
    details({ booking: { status: 'confirmed', scheduledAt: at, calendarSequence: sequence, updatedAt: new Date('2026-11-22T18:00:00Z') } });

  it('confirms with the time in California, the address and an invitation', () => {
    const mail = statusChangeMail(confirmed(), 'confirmed', ORIGIN, false);
    expect(mail.to).toBe('ana@example.com');
    expect(mail.subject).toBe('Confirmed: Signature HydraFacial at Glow Spa');
    expect(mail.text).toContain(`Glow Spa confirmed your appointment for ${formatPacificDateTime(at)}.`);
    // The listed address already names the city; it is not repeated.
    expect(mail.text).toContain('Address: 71 Fortune Drive, Suite 200, Irvine, CA 92618\n');
    expect(mail.text).toContain('Phone: (949) 555-0111');
    expect(mail.text).toContain(`${ORIGIN}${MANAGE_PATH}`);
    expect(invitation(mail, 'UID', 'SEQUENCE', 'DTSTART')).toEqual({
      method: 'REQUEST',
      METHOD: 'METHOD:REQUEST',
      UID: 'booking-4242@ocmedspadirectory.com',
      SEQUENCE: '1',
      DTSTART: '20261201T143000',
    });
  });

  it('announces a new time with the same UID and the higher sequence', () => {
    const moved = details({ booking: { status: 'confirmed', scheduledAt: new Date('2026-12-03T17:00:00Z'), calendarSequence: 2 } });
    const mail = statusChangeMail(moved, 'rescheduled', ORIGIN, true);
    expect(mail.subject).toBe('New time: Signature HydraFacial at Glow Spa');
    expect(mail.text).toContain('Glow Spa moved your appointment to');
    const ics = mail.icalEvent!.content;
    expect(mail.icalEvent?.method).toBe('REQUEST');
    expect(eventProperty(ics, 'UID')).toBe(eventProperty(statusChangeMail(confirmed(), 'confirmed', ORIGIN, false).icalEvent!.content, 'UID'));
    expect(eventProperty(ics, 'SEQUENCE')).toBe('2');
    expect(eventProperty(ics, 'DTSTART')).toBe('20261203T090000');
  });

  it('withdraws the invitation when a confirmed booking is cancelled', () => {
    const cancelled = details({ booking: { status: 'cancelled', scheduledAt: at, calendarSequence: 3 } });
    const mail = statusChangeMail(cancelled, 'cancelled', ORIGIN, true);
    expect(mail.subject).toBe('Cancelled: Signature HydraFacial at Glow Spa');
    expect(invitation(mail, 'STATUS', 'UID', 'SEQUENCE')).toEqual({
      method: 'CANCEL',
      METHOD: 'METHOD:CANCEL',
      STATUS: 'CANCELLED',
      UID: 'booking-4242@ocmedspadirectory.com',
      SEQUENCE: '3',
    });
    expect(mail.text).toContain(`on ${formatPacificDateTime(at)} is cancelled`);
    expect(mail.text).toContain(`${ORIGIN}/booking?spa=3`);
  });

  it('sends no calendar part when a pending request is cancelled or a visit completed', () => {
    const cancelledPending = statusChangeMail(details({ booking: { status: 'cancelled' } }), 'cancelled', ORIGIN, false);
    expect(cancelledPending.icalEvent).toBeUndefined();
    expect(cancelledPending.subject).toBe('Cancelled: Signature HydraFacial at Glow Spa');
    expect(cancelledPending.text).toContain('Your booking for Signature HydraFacial at Glow Spa is cancelled.');
    expect(cancelledPending.text).toContain('call (949) 555-0111');
    expect(cancelledPending.text).not.toContain('wrote:');
    // A decline with the owner's reason carries it, in the spa's name (issue 26).
    const declined = statusChangeMail(details({ booking: { status: 'cancelled' } }), 'cancelled', ORIGIN, false, 'We are fully booked that week.');
    expect(declined.text).toContain('Glow Spa wrote:\nWe are fully booked that week.');

    const general = statusChangeMail(
      details({ service: null, spa: null, cityName: null, ownerEmail: null, booking: { status: 'cancelled' } }),
      'cancelled',
      ORIGIN,
      false,
    );
    expect(general.subject).toBe('Cancelled: a consultation at Orange County Med Spa Directory');
    expect(general.text).toContain(`call ${contact.phone}`);
    expect(general.text).toContain(`${ORIGIN}/#contact`);

    const completed = statusChangeMail(details({ booking: { status: 'completed', scheduledAt: at, calendarSequence: 1 } }), 'completed', ORIGIN, true);
    expect(completed.subject).toBe('Thank you for visiting Glow Spa');
    expect(completed.icalEvent).toBeUndefined();
    expect(completed.text).toContain(`${ORIGIN}/services`);
  });
});

describe('bookingCalendarEvent', () => {
  it('describes the appointment: organizer, attendee, place, duration and the manage link', () => {
    const ics = bookingCalendarEvent(
      details({ booking: { status: 'confirmed', scheduledAt: new Date('2027-07-01T21:30:00Z'), calendarSequence: 1 } }),
      'REQUEST',
      ORIGIN,
    );
    expect(eventProperty(ics, 'SUMMARY')).toBe('Signature HydraFacial at Glow Spa');
    expect(eventProperty(ics, 'DTSTART')).toBe('20270701T143000');
    expect(eventProperty(ics, 'DTEND')).toBe('20270701T153000');
    expect(eventProperty(ics, 'LOCATION')).toBe('71 Fortune Drive\\, Suite 200\\, Irvine\\, CA 92618');
    expect(eventProperty(ics, 'URL')).toBe(`${ORIGIN}${MANAGE_PATH}`);
    expect(eventProperty(ics, 'DESCRIPTION')).toBe(`Manage or cancel: ${ORIGIN}${MANAGE_PATH}`);
    expect(eventProperty(ics, 'ORGANIZER')).toBe(`mailto:${addressOf(MAIL_FROM)}`);
    expect(icsLines(ics).find((line) => line.startsWith('ORGANIZER'))).toContain('CN="Glow Spa"');
    expect(eventProperty(ics, 'ATTENDEE')).toBe('mailto:ana@example.com');
  });

  it('falls back to the city for the place when the spa lists no address', () => {
    const at = new Date('2026-12-01T22:30:00Z');
    const noAddress = details({ spa: { ...details().spa!, address: null }, booking: { status: 'confirmed', scheduledAt: at, calendarSequence: 1 } });
    expect(eventProperty(bookingCalendarEvent(noAddress, 'REQUEST', ORIGIN), 'LOCATION')).toBe('Irvine\\, CA');
    expect(statusChangeMail(noAddress, 'confirmed', ORIGIN, false).text).toContain('Address: Irvine\n');
  });

  it('gives a consultation without a service half an hour, and takes the UID host from the origin', () => {
    const ics = bookingCalendarEvent(
      details({ service: null, spa: null, cityName: null, booking: { status: 'confirmed', scheduledAt: new Date('2026-12-01T22:30:00Z') } }),
      'REQUEST',
      'http://localhost:4321',
    );
    expect(eventProperty(ics, 'SUMMARY')).toBe('Consultation at Orange County Med Spa Directory');
    expect(eventProperty(ics, 'DTEND')).toBe('20261201T150000');
    expect(eventProperty(ics, 'LOCATION')).toBeUndefined();
    expect(eventProperty(ics, 'UID')).toBe('booking-4242@localhost');
  });

  it('refuses a booking without an appointment time', () => {
    expect(() => bookingCalendarEvent(details(), 'REQUEST', ORIGIN)).toThrow(/no appointment time/);
  });
});

// --- through the database -------------------------------------------------------

let owner: SessionUser;
let spaId = 0;
let serviceId = 0;

beforeAll(() => {
  const city = db.select({ id: cities.id }).from(cities).limit(1).get()!;
  owner = insertUser(email('owner'), 'owner');
  spaId = db
    .insert(spas)
    .values({
      name: 'Mail Test Spa',
      slug: `${TAG}-spa`,
      cityId: city.id,
      ownerId: owner.id,
      address: '9 Harbor Blvd, Newport Beach, CA 92660',
      email: email('spa-inbox'),
    })
    .returning({ id: spas.id })
    .get().id;
  serviceId = db
    .insert(services)
    .values({ spaId, name: 'Mail Test Peel', priceCents: 12_500, duration: 45, category: 'facial' })
    .returning({ id: services.id })
    .get().id;
});

function newBooking() {
  const created = createBooking({ name: 'Bea Cruz', email: email('client'), serviceId, preferredDate: '2030-06-01' });
  if (!created.ok) throw new Error('booking refused');
  return created.value;
}

function change(id: number, ...args: Parameters<typeof changeBooking> extends [number, ...infer Rest] ? Rest : never) {
  const result = changeBooking(id, ...args);
  if (!result.ok) throw new Error(`change refused: ${result.message}`);
  return result.value;
}

describe('the mails of one booking, from the database', () => {
  it('sends the owner the request, and keeps one UID while the sequence rises through confirm, reschedule and cancel', () => {
    const { id, manageToken } = newBooking();
    const created = bookingDetails(id)!;
    expect(newRequestMail(created, ORIGIN).to).toBe(owner.email);
    expect(requestReceivedMail(created, ORIGIN).text).toContain(`${ORIGIN}/bookings/manage/${manageToken}`);

    const first = new Date(Date.now() + 3 * DAY);
    const second = new Date(Date.now() + 5 * DAY);
    const confirmed = change(id, { status: 'confirmed', scheduledAt: first }, { user: owner });
    const rescheduled = change(id, { reschedule: second }, { user: owner });
    const cancelled = change(id, { status: 'cancelled' }, { manageToken });

    const invite = statusChangeMail(confirmed.after, 'confirmed', ORIGIN, confirmed.before.booking.status === 'confirmed');
    const update = statusChangeMail(rescheduled.after, 'rescheduled', ORIGIN, rescheduled.before.booking.status === 'confirmed');
    const withdrawal = statusChangeMail(cancelled.after, 'cancelled', ORIGIN, cancelled.before.booking.status === 'confirmed');

    const uid = `booking-${id}@ocmedspadirectory.com`;
    for (const mail of [invite, update, withdrawal]) {
      expect(mail.to).toBe(email('client'));
      expect(eventProperty(mail.icalEvent!.content, 'UID')).toBe(uid);
    }
    for (const mail of [invite, update]) expect(mail.text).toContain(`${ORIGIN}/bookings/manage/${manageToken}`);
    expect(withdrawal.text).toContain(`${ORIGIN}/booking?spa=${spaId}`);
    expect([invite, update, withdrawal].map((mail) => mail.icalEvent?.method)).toEqual(['REQUEST', 'REQUEST', 'CANCEL']);
    const sequences = [invite, update, withdrawal].map((mail) => Number(eventProperty(mail.icalEvent!.content, 'SEQUENCE')));
    expect(sequences).toEqual([1, 2, 3]);
    expect(calendarMethod(withdrawal.icalEvent!.content)).toBe('METHOD:CANCEL');
    expect(eventProperty(invite.icalEvent!.content, 'LOCATION')).toBe('9 Harbor Blvd\\, Newport Beach\\, CA 92660');
    expect(clientCancelledMail(cancelled.after, ORIGIN).to).toBe(owner.email);
  });
});

// --- a real SMTP server on loopback (tests/support/smtp.ts) ---------------------------

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function startSmtp() {
  const smtp = await startLoopbackSmtp();
  closers.push(smtp.close);
  return smtp;
}

describe('a confirmation through SMTP', () => {
  it('arrives with a text/calendar; method=REQUEST part holding the VEVENT', async () => {
    const smtp = await startSmtp();
    const log = { info: vi.fn<(message: string) => void>(), warn: vi.fn<(message: string) => void>(), error: vi.fn<(message: string) => void>() };
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', from: MAIL_FROM, log });

    const { id, manageToken } = newBooking();
    const confirmed = change(id, { status: 'confirmed', scheduledAt: new Date('2030-06-01T17:00:00Z') }, { user: owner });
    const message: MailMessage = statusChangeMail(confirmed.after, 'confirmed', ORIGIN, false);
    await mailer.send(message);

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.to).toEqual([email('client')]);
    const root = parseMime(mail!.raw);
    expect(root.headers.subject).toBe('Confirmed: Mail Test Peel at Mail Test Spa');

    const calendar = allParts(root).find((part) => /^text\/calendar/i.test(part.headers['content-type'] ?? ''));
    expect(calendar, 'a text/calendar part').toBeDefined();
    expect(calendar!.headers['content-type']).toMatch(/method=REQUEST/i);
    const ics = calendar!.body.replace(/\n/g, '\r\n').replace(/\r\r\n/g, '\r\n');
    expect(icsLines(ics)).toContain('BEGIN:VEVENT');
    expect(icsLines(ics)).toContain('END:VEVENT');
    expect(calendarMethod(ics)).toBe('METHOD:REQUEST');
    expect(eventProperty(ics, 'UID')).toBe(`booking-${id}@ocmedspadirectory.com`);
    expect(eventProperty(ics, 'SEQUENCE')).toBe('1');
    // 10:00 PDT on June 1, 2030.
    expect(eventProperty(ics, 'DTSTART')).toBe('20300601T100000');
    expect(eventProperty(ics, 'DTEND')).toBe('20300601T104500');

    const text = allParts(root).find((part) => /^text\/plain/i.test(part.headers['content-type'] ?? ''));
    expect(text?.body).toContain(`${ORIGIN}/bookings/manage/${manageToken}`);
    expect(log.error).not.toHaveBeenCalled();
  });
});
