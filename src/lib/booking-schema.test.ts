import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BOOKING_MESSAGES,
  bookingChangeSchema,
  bookingFormSchema,
  bookingRequestSchema,
  leadChangeSchema,
  parseAppointmentTime,
  toCalendarDate,
} from './booking-schema.ts';

// 06:30 UTC on Nov 23 is 22:30 PST on Nov 22: "today" is the 22nd in California.
const NOW = new Date('2026-11-23T06:30:00Z');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

const valid = { name: 'Ana Lopez', email: 'ana@example.com' };

type Schema = Parameters<typeof issuesOf>[0];

/** path -> messages of a failed parse (empty object when it succeeds). */
function issuesOf(
  schema: { safeParse: (input: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  input: unknown,
) {
  const result = schema.safeParse(input);
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = issue.path.map(String).join('.');
    (byPath[key] ??= []).push(issue.message);
  }
  return byPath;
}

const request = (input: Record<string, unknown>) => bookingRequestSchema.safeParse({ ...valid, ...input });
const fieldMessages = (schema: Schema, input: unknown, field: string) => issuesOf(schema, input)[field] ?? [];

describe('bookingRequestSchema: required fields', () => {
  it('accepts the minimal request and leaves every optional field undefined', () => {
    const result = bookingRequestSchema.safeParse(valid);
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ name: 'Ana Lopez', email: 'ana@example.com' });
    for (const key of ['phone', 'serviceId', 'spaId', 'preferredDate', 'message', 'source', 'medium', 'campaign'] as const) {
      expect(result.data?.[key], key).toBeUndefined();
    }
  });

  it('says "Name is required" for a missing, empty, blank or non-string name', () => {
    for (const name of [undefined, '', '   ', '\t\n', 42, null]) {
      expect(fieldMessages(bookingRequestSchema, { ...valid, name }, 'name'), JSON.stringify(name)).toEqual([BOOKING_MESSAGES.name]);
    }
    expect(BOOKING_MESSAGES.name).toBe('Name is required');
  });

  it('says "Valid email is required" for a missing, malformed or non-string email', () => {
    for (const email of [undefined, '', '  ', 'ana', 'ana@', '@example.com', 'ana@example', 'ana example@example.com', 7, null]) {
      expect(fieldMessages(bookingRequestSchema, { ...valid, email }, 'email'), JSON.stringify(email)).toEqual([BOOKING_MESSAGES.email]);
    }
    expect(BOOKING_MESSAGES.email).toBe('Valid email is required');
  });

  it('reports every bad field at once', () => {
    const issues = issuesOf(bookingRequestSchema, { name: '', email: 'nope', phone: 'abc', preferredDate: 'soon' });
    expect(Object.keys(issues).sort()).toEqual(['email', 'name', 'phone', 'preferredDate']);
  });

  it('trims the name and trims and lower-cases the email', () => {
    const result = bookingRequestSchema.parse({ name: '  Ana Lopez  ', email: '  Ana.Lopez@Example.COM ' });
    expect(result.name).toBe('Ana Lopez');
    expect(result.email).toBe('ana.lopez@example.com');
  });
});

describe('bookingRequestSchema: optional fields', () => {
  it.each(['phone', 'preferredDate', 'message', 'source', 'medium', 'campaign'])(
    'treats %s absent, empty and blank as undefined, and null as not given',
    (field) => {
      for (const value of [undefined, '', '   ', '\t\n ']) {
        const result = request({ [field]: value });
        expect(result.success, `${field}=${JSON.stringify(value)}`).toBe(true);
        expect(result.data?.[field as keyof typeof result.data], `${field}=${JSON.stringify(value)}`).toBeUndefined();
      }
      // null passes through as null (the output type is string | null | undefined); callers use `?? null`.
      const result = request({ [field]: null });
      expect(result.success).toBe(true);
      expect(result.data?.[field as keyof typeof result.data] == null).toBe(true);
    },
  );

  it('treats absent and null ids as not given, and refuses non-positive or non-integer ids', () => {
    expect(request({}).data).toEqual(valid);
    const nulls = request({ serviceId: null, spaId: null });
    expect(nulls.success).toBe(true);
    expect(nulls.data?.serviceId == null && nulls.data?.spaId == null).toBe(true);
    expect(request({ serviceId: 12, spaId: 3 }).data).toMatchObject({ serviceId: 12, spaId: 3 });
    for (const bad of [0, -1, 1.5, '12', Number.MAX_SAFE_INTEGER + 2]) {
      expect(new Set(fieldMessages(bookingRequestSchema, { ...valid, serviceId: bad }, 'serviceId')), String(bad)).toEqual(
        new Set(['Choose a service from the list']),
      );
      expect(new Set(fieldMessages(bookingRequestSchema, { ...valid, spaId: bad }, 'spaId')), String(bad)).toEqual(
        new Set(['Choose a provider from the list']),
      );
    }
  });

  it('trims and keeps tracking fields, up to 100 characters', () => {
    expect(request({ source: ' google ', medium: 'cpc', campaign: 'x'.repeat(100) }).data).toMatchObject({
      source: 'google',
      medium: 'cpc',
      campaign: 'x'.repeat(100),
    });
    expect(request({ campaign: 'x'.repeat(101) }).success).toBe(false);
  });
});

describe('bookingRequestSchema: limits and characters', () => {
  it('allows a name of 100 characters, not 101', () => {
    expect(request({ name: 'a'.repeat(100) }).success).toBe(true);
    expect(fieldMessages(bookingRequestSchema, { ...valid, name: 'a'.repeat(101) }, 'name')).toEqual(['At most 100 characters']);
    // Surrounding blanks do not count.
    expect(request({ name: ` ${'a'.repeat(100)} ` }).success).toBe(true);
  });

  it('allows a message of 2000 characters, not 2001', () => {
    expect(request({ message: 'm'.repeat(2000) }).data?.message).toHaveLength(2000);
    expect(fieldMessages(bookingRequestSchema, { ...valid, message: 'm'.repeat(2001) }, 'message')).toEqual(['At most 2000 characters']);
  });

  it('accepts phone numbers of 7 to 15 digits in the usual notations', () => {
    for (const phone of ['555-0100', '(949) 555-0100', '+1 949.555.0100', '+44 20 7946 0958', '123456789012345']) {
      expect(request({ phone }).data?.phone, phone).toBe(phone);
    }
    expect(request({ phone: '  (949) 555-0100 ' }).data?.phone).toBe('(949) 555-0100');
  });

  it('refuses phone numbers with too few or too many digits, or letters', () => {
    for (const phone of ['555-010', '123456', '1234567890123456', '949-555-CALL', '555 0100 ext 2', '---', '+']) {
      expect(fieldMessages(bookingRequestSchema, { ...valid, phone }, 'phone'), phone).toContain(BOOKING_MESSAGES.phone);
    }
  });

  it('refuses control characters and lone surrogates in the name', () => {
    for (const name of ['Ana\u0000', 'Ana\u0007Lopez', 'Ana\u001bLopez', 'Ana\u007f', 'Ana\ud800', '\udc00Ana', 'A\ud83dna']) {
      expect(fieldMessages(bookingRequestSchema, { ...valid, name }, 'name'), JSON.stringify(name)).toContain('Name contains characters that are not allowed');
    }
  });

  it('refuses a name on more than one line', () => {
    for (const name of ['Ana\nLopez', 'Ana\rLopez', 'Ana\u2028Lopez', 'Ana\u2029Lopez']) {
      expect(fieldMessages(bookingRequestSchema, { ...valid, name }, 'name'), JSON.stringify(name)).toContain('Name must be on one line');
    }
  });

  it('keeps well-formed non-ASCII names and emoji', () => {
    expect(request({ name: 'Zoë Nguyễn 🌸' }).data?.name).toBe('Zoë Nguyễn 🌸');
  });

  it('normalises line breaks in the message and drops control characters, but refuses lone surrogates', () => {
    expect(request({ message: 'Line one\r\nLine two\rLine three\tTabbed\u0007' }).data?.message).toBe('Line one\nLine two\nLine three\tTabbed');
    expect(fieldMessages(bookingRequestSchema, { ...valid, message: 'Hi \ud800' }, 'message')).toEqual(['Message contains characters that are not allowed']);
  });
});

describe('bookingRequestSchema: preferredDate', () => {
  it('accepts YYYY-MM-DD and a JSON-serialised Date, normalised to YYYY-MM-DD', () => {
    expect(request({ preferredDate: '2027-01-02' }).data?.preferredDate).toBe('2027-01-02');
    expect(request({ preferredDate: '2027-01-02T00:00:00.000Z' }).data?.preferredDate).toBe('2027-01-02');
    expect(request({ preferredDate: JSON.parse(JSON.stringify(new Date('2027-01-02'))) as string }).data?.preferredDate).toBe('2027-01-02');
    expect(request({ preferredDate: ' 2027-01-02 ' }).data?.preferredDate).toBe('2027-01-02');
  });

  it('takes today from California: the 22nd is allowed though it is already the 23rd in UTC, the 21st is not', () => {
    expect(new Date().toISOString()).toBe(NOW.toISOString());
    expect(request({ preferredDate: '2026-11-22' }).data?.preferredDate).toBe('2026-11-22');
    expect(request({ preferredDate: '2026-11-23' }).data?.preferredDate).toBe('2026-11-23');
    expect(fieldMessages(bookingRequestSchema, { ...valid, preferredDate: '2026-11-21' }, 'preferredDate')).toEqual([BOOKING_MESSAGES.pastDate]);
    expect(fieldMessages(bookingRequestSchema, { ...valid, preferredDate: '2025-12-31' }, 'preferredDate')).toEqual(['Preferred date cannot be in the past']);
  });

  it('moves "today" with the clock in California', () => {
    // 08:00 UTC on Nov 23 is midnight PST: now the 22nd is in the past.
    vi.setSystemTime(new Date('2026-11-23T08:00:00Z'));
    expect(request({ preferredDate: '2026-11-22' }).success).toBe(false);
    expect(request({ preferredDate: '2026-11-23' }).success).toBe(true);
  });

  it('refuses dates that are not on the calendar or not dates at all', () => {
    for (const preferredDate of [
      '2027-02-29',
      '2027-02-30',
      '2027-04-31',
      '2027-13-01',
      '2027-00-10',
      '2027-1-2',
      '01/02/2027',
      'tomorrow',
      '2027-01-02 10:00',
      '2027-01-02Tjunk',
    ]) {
      expect(fieldMessages(bookingRequestSchema, { ...valid, preferredDate }, 'preferredDate'), preferredDate).toEqual([BOOKING_MESSAGES.date]);
    }
    expect(fieldMessages(bookingRequestSchema, { ...valid, preferredDate: 20270102 }, 'preferredDate')).toEqual(['Enter a valid date']);
    expect(fieldMessages(bookingRequestSchema, { ...valid, preferredDate: '2027-01-02'.padEnd(41, ' ') }, 'preferredDate')).toEqual(['Enter a valid date']);
    // A leap day is fine in a leap year.
    expect(request({ preferredDate: '2028-02-29' }).data?.preferredDate).toBe('2028-02-29');
  });
});

describe('bookingFormSchema and consent', () => {
  it('requires the consent box with "You must agree to continue"', () => {
    for (const consent of [undefined, false, 'true', 'on', 1]) {
      expect(fieldMessages(bookingFormSchema, { ...valid, consent }, 'consent'), String(consent)).toEqual([BOOKING_MESSAGES.consent]);
    }
    expect(BOOKING_MESSAGES.consent).toBe('You must agree to continue');
    expect(bookingFormSchema.safeParse({ ...valid, consent: true }).success).toBe(true);
  });

  it('checks the same fields as the request', () => {
    const issues = issuesOf(bookingFormSchema, { name: ' ', email: 'x', consent: true });
    expect(issues).toEqual({ name: [BOOKING_MESSAGES.name], email: [BOOKING_MESSAGES.email] });
  });

  it('keeps consent out of the request schema output', () => {
    const result = bookingRequestSchema.parse({ ...valid, consent: true });
    expect(result).not.toHaveProperty('consent');
    expect(result).toEqual(valid);
  });
});

describe('toCalendarDate', () => {
  it.each(['2027-01-02', '2027-01-02T00:00:00.000Z', '2027-01-02T08:00:00+00:00', '2027-01-02T10:30'])('returns the calendar date of %j', (value) => {
    expect(toCalendarDate(value)).toBe('2027-01-02');
  });

  it('returns a leap day, trimmed', () => {
    expect(toCalendarDate('  2028-02-29  ')).toBe('2028-02-29');
  });

  it('returns null for impossible dates and other text', () => {
    for (const value of [
      '',
      '2027-02-29',
      '2027-06-31',
      '2027-13-01',
      '2027-01-32',
      '27-01-02',
      '2027/01/02',
      'January 2, 2027',
      '2027-01-02junk',
      '2027-01-02T00:00:00.000Zjunk',
    ]) {
      expect(toCalendarDate(value), value).toBeNull();
    }
  });
});

describe('parseAppointmentTime', () => {
  it('reads a datetime-local value as Pacific wall-clock time, in winter and summer', () => {
    expect(parseAppointmentTime('2026-12-01T14:30')?.toISOString()).toBe('2026-12-01T22:30:00.000Z');
    expect(parseAppointmentTime('2027-07-01T14:30')?.toISOString()).toBe('2027-07-01T21:30:00.000Z');
  });

  it('takes an instant with a zone as it is', () => {
    expect(parseAppointmentTime('2026-12-01T14:30:00Z')?.toISOString()).toBe('2026-12-01T14:30:00.000Z');
    expect(parseAppointmentTime('2026-12-01T14:30:00+02:00')?.toISOString()).toBe('2026-12-01T12:30:00.000Z');
    expect(parseAppointmentTime('2026-12-01T14:30:00.000-0800')?.toISOString()).toBe('2026-12-01T22:30:00.000Z');
  });

  it('returns null for times that do not exist or are not times', () => {
    for (const value of ['', 'soon', '2026-12-01', '2026-12-01T25:00', '2026-02-30T10:00', '2027-03-14T02:30', '2026-99-01T10:00Z']) {
      expect(parseAppointmentTime(value), value).toBeNull();
    }
  });
});

describe('bookingChangeSchema', () => {
  it('turns a confirmation with a datetime-local time into the Pacific instant', () => {
    const change = bookingChangeSchema.parse({ status: 'confirmed', scheduledAt: '2026-12-01T14:30' });
    expect(change).toEqual({ status: 'confirmed', scheduledAt: new Date('2026-12-01T22:30:00Z') });
    expect('scheduledAt' in change && change.scheduledAt.toISOString()).toBe('2026-12-01T22:30:00.000Z');
  });

  it('turns a time alone into a reschedule', () => {
    expect(bookingChangeSchema.parse({ scheduledAt: '2027-07-04T09:15' })).toEqual({ reschedule: new Date('2027-07-04T16:15:00Z') });
    expect(bookingChangeSchema.parse({ scheduledAt: ' 2027-07-04T09:15 ' })).toEqual({ reschedule: new Date('2027-07-04T16:15:00Z') });
  });

  it('passes completion and cancellation through, without a time', () => {
    expect(bookingChangeSchema.parse({ status: 'completed' })).toEqual({ status: 'completed' });
    expect(bookingChangeSchema.parse({ status: 'cancelled' })).toEqual({ status: 'cancelled' });
    expect(bookingChangeSchema.parse({ status: 'cancelled', scheduledAt: '2026-12-01T14:30' })).toEqual({ status: 'cancelled' });
  });

  it('requires the time when confirming, and some change at all', () => {
    const message = 'Choose a date and time for the appointment';
    expect(issuesOf(bookingChangeSchema, { status: 'confirmed' })).toEqual({ scheduledAt: [message] });
    expect(issuesOf(bookingChangeSchema, {})).toEqual({ scheduledAt: [message] });
  });

  it('refuses unknown statuses and unreadable times', () => {
    expect(issuesOf(bookingChangeSchema, { status: 'pending' })).toEqual({ status: ['Status must be confirmed, completed or cancelled'] });
    expect(issuesOf(bookingChangeSchema, { status: 'confirmed', scheduledAt: 'next week' }).scheduledAt).toEqual([
      'Choose a date and time for the appointment',
    ]);
    // The hour that does not exist in California when clocks go forward.
    expect(bookingChangeSchema.safeParse({ status: 'confirmed', scheduledAt: '2027-03-14T02:30' }).success).toBe(false);
    expect(bookingChangeSchema.safeParse({ status: 'confirmed', scheduledAt: 1764628200000 }).success).toBe(false);
  });
});

describe('leadChangeSchema', () => {
  it('accepts the four lead statuses and nothing else', () => {
    for (const status of ['new', 'contacted', 'converted', 'lost']) expect(leadChangeSchema.parse({ status })).toEqual({ status });
    for (const status of ['won', 'NEW', '', undefined]) {
      expect(issuesOf(leadChangeSchema, { status }), String(status)).toEqual({ status: ['Status must be new, contacted, converted or lost'] });
    }
  });
});
