import { describe, expect, it } from 'vitest';
import { buildCalendarEvent, escapeText, foldLine, type CalendarEvent } from './calendar.ts';
import { fromPacificWallClock } from './dates.ts';

const base: CalendarEvent = {
  method: 'REQUEST',
  uid: 'booking-42@ocmedspadirectory.com',
  sequence: 0,
  // 14:30 PST on Tuesday, Dec 1, 2026.
  start: new Date('2026-12-01T22:30:00Z'),
  durationMinutes: 90,
  summary: 'Signature HydraFacial at Glow Spa',
  description: 'Manage or cancel: https://ocmedspadirectory.com/bookings/manage/abc',
  location: '123 Main St, Irvine, CA',
  url: 'https://ocmedspadirectory.com/bookings/manage/abc',
  organizer: { name: 'Glow Spa', email: 'hello@ocmedspadirectory.com' },
  attendee: { name: 'Ana Lopez', email: 'ana@example.com' },
  stamp: new Date('2026-11-22T18:05:09.123Z'),
};

const octets = (text: string) => Buffer.byteLength(text, 'utf8');
/** RFC 5545 3.1: a CRLF followed by one space is removed when reading. */
const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, '');
/** The logical lines (content lines after unfolding), without the final empty one. */
const contentLines = (ics: string) => unfold(ics).split('\r\n').slice(0, -1);
/** The lines of the VEVENT itself, without its VALARM. */
function eventLines(ics: string): string[] {
  const lines = contentLines(ics);
  const event = lines.slice(lines.indexOf('BEGIN:VEVENT'), lines.indexOf('END:VEVENT') + 1);
  const alarm = event.indexOf('BEGIN:VALARM');
  return alarm === -1 ? event : [...event.slice(0, alarm), ...event.slice(event.indexOf('END:VALARM') + 1)];
}
const named = (name: string) => (line: string) => line.startsWith(`${name}:`) || line.startsWith(`${name};`);
/** A calendar property (METHOD, PRODID) or, when the name is an event property, that property of the VEVENT. */
const CALENDAR_PROPERTIES = new Set(['METHOD', 'PRODID', 'VERSION', 'CALSCALE']);
const property = (ics: string, name: string) => (CALENDAR_PROPERTIES.has(name) ? contentLines(ics).filter(named(name)) : eventLines(ics).filter(named(name)));

describe('buildCalendarEvent: the envelope', () => {
  it('is a VCALENDAR with METHOD:REQUEST, a confirmed VEVENT and a reminder', () => {
    const ics = buildCalendarEvent(base);
    const lines = contentLines(ics);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    expect(property(ics, 'PRODID')).toHaveLength(1);
    expect(property(ics, 'METHOD')).toEqual(['METHOD:REQUEST']);
    expect(property(ics, 'STATUS')).toEqual(['STATUS:CONFIRMED']);
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines).toContain('BEGIN:VALARM');
    expect(lines).toContain('TRIGGER:-PT2H');
  });

  it('is a cancellation with METHOD:CANCEL and STATUS:CANCELLED, without a reminder', () => {
    const ics = buildCalendarEvent({ ...base, method: 'CANCEL', sequence: 2 });
    expect(property(ics, 'METHOD')).toEqual(['METHOD:CANCEL']);
    expect(property(ics, 'STATUS')).toEqual(['STATUS:CANCELLED']);
    expect(contentLines(ics)).not.toContain('BEGIN:VALARM');
    expect(ics).not.toContain('STATUS:CONFIRMED');
  });

  it('ends every line with CRLF, and has no bare CR or LF', () => {
    const ics = buildCalendarEvent({ ...base, description: 'Line one\nLine two\r\nLine three\rfour' });
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('keeps the UID for the life of the booking and carries the SEQUENCE', () => {
    const first = buildCalendarEvent(base);
    const moved = buildCalendarEvent({ ...base, sequence: 3, start: new Date('2026-12-05T18:00:00Z') });
    const cancelled = buildCalendarEvent({ ...base, method: 'CANCEL', sequence: 4 });
    for (const ics of [first, moved, cancelled]) expect(property(ics, 'UID')).toEqual(['UID:booking-42@ocmedspadirectory.com']);
    expect(property(first, 'SEQUENCE')).toEqual(['SEQUENCE:0']);
    expect(property(moved, 'SEQUENCE')).toEqual(['SEQUENCE:3']);
    expect(property(cancelled, 'SEQUENCE')).toEqual(['SEQUENCE:4']);
  });

  it('stamps DTSTAMP in UTC without milliseconds', () => {
    expect(property(buildCalendarEvent(base), 'DTSTAMP')).toEqual(['DTSTAMP:20261122T180509Z']);
  });

  it('names the organizer and the attendee, with quotes and control characters removed from their names', () => {
    const ics = buildCalendarEvent({
      ...base,
      organizer: { name: 'Glow "Best" Spa', email: 'hello@ocmedspadirectory.com' },
      attendee: { name: 'Ana\u0007 "AJ" Lopez', email: 'ana@example.com' },
    });
    expect(property(ics, 'ORGANIZER')).toEqual(['ORGANIZER;CN="Glow Best Spa":mailto:hello@ocmedspadirectory.com']);
    expect(property(ics, 'ATTENDEE')).toEqual(['ATTENDEE;CN="Ana AJ Lopez";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:ana@example.com']);
  });

  it('leaves LOCATION and URL out when there are none', () => {
    const ics = buildCalendarEvent({ ...base, location: undefined, url: undefined });
    expect(property(ics, 'LOCATION')).toEqual([]);
    expect(property(ics, 'URL')).toEqual([]);
    expect(property(buildCalendarEvent(base), 'URL')).toEqual(['URL:https://ocmedspadirectory.com/bookings/manage/abc']);
  });
});

describe('buildCalendarEvent: time', () => {
  it('defines America/Los_Angeles in a VTIMEZONE before the event', () => {
    const lines = contentLines(buildCalendarEvent(base));
    const begin = lines.indexOf('BEGIN:VTIMEZONE');
    const end = lines.indexOf('END:VTIMEZONE');
    expect(begin).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(begin);
    expect(end).toBeLessThan(lines.indexOf('BEGIN:VEVENT'));
    const zone = lines.slice(begin, end + 1);
    expect(zone).toContain('TZID:America/Los_Angeles');
    // Daylight time: -08:00 -> -07:00 on the second Sunday of March; back on the first Sunday of November.
    expect(zone.join('\n')).toMatch(/BEGIN:DAYLIGHT\nTZOFFSETFROM:-0800\nTZOFFSETTO:-0700\n(?:.*\n)*?RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\nEND:DAYLIGHT/);
    expect(zone.join('\n')).toMatch(/BEGIN:STANDARD\nTZOFFSETFROM:-0700\nTZOFFSETTO:-0800\n(?:.*\n)*?RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\nEND:STANDARD/);
  });

  it.each([
    ['gives DTSTART and DTEND as Pacific wall-clock times in winter (PST)', base.start, 90, '20261201T143000', '20261201T160000'],
    ['gives DTSTART and DTEND as Pacific wall-clock times in summer (PDT)', new Date('2027-07-01T21:30:00Z'), 45, '20270701T143000', '20270701T151500'],
    // 23:30 PST on Dec 31 for an hour.
    ['ends the event on the next day when it runs past midnight', new Date('2027-01-01T07:30:00Z'), 60, '20261231T233000', '20270101T003000'],
    // 01:30 PST on Mar 14, 2027, for an hour: clocks jump from 02:00 to 03:00.
    ['adds the duration in real time across the change to daylight time', new Date('2027-03-14T09:30:00Z'), 60, '20270314T013000', '20270314T033000'],
  ] as const)('%s', (_name, start, durationMinutes, from, to) => {
    const ics = buildCalendarEvent({ ...base, start, durationMinutes });
    expect(property(ics, 'DTSTART')).toEqual([`DTSTART;TZID=America/Los_Angeles:${from}`]);
    expect(property(ics, 'DTEND')).toEqual([`DTEND;TZID=America/Los_Angeles:${to}`]);
  });
});

/** The instant a calendar reads from a TZID=America/Los_Angeles value: a repeated local time is its first occurrence (RFC 5545 3.3.5). */
/** How a calendar reads a DTSTART/DTEND line: a UTC value as is, a local one in the TZID's zone (first occurrence). */
function readPacific(value: string | undefined): string | undefined {
  const utc = /:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (utc) return new Date(`${utc[1]}-${utc[2]}-${utc[3]}T${utc[4]}:${utc[5]}:${utc[6]}Z`).toISOString();
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(value?.split(':').at(-1) ?? '');
  return match ? fromPacificWallClock(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}`)?.toISOString() : undefined;
}

describe('buildCalendarEvent: the night clocks go back', () => {
  // 01:00-01:59 happens twice on Nov 1, 2026. A calendar takes such a local
  // time as its first (PDT) occurrence, so an instant in the second (PST) one
  // must be written in UTC to be read right.
  it('writes DTSTART and DTEND that a calendar reads back as the real start and end', () => {
    const cases = [
      // 00:30 PDT for 90 minutes: ends at 01:00 PST, the second 01:00.
      { start: '2026-11-01T07:30:00.000Z', minutes: 90, end: '2026-11-01T09:00:00.000Z' },
      // 01:30 PST (the second 01:30) for an hour.
      { start: '2026-11-01T09:30:00.000Z', minutes: 60, end: '2026-11-01T10:30:00.000Z' },
    ];
    for (const { start, minutes, end } of cases) {
      const ics = buildCalendarEvent({ ...base, start: new Date(start), durationMinutes: minutes });
      const dtstart = property(ics, 'DTSTART')[0];
      const dtend = property(ics, 'DTEND')[0];
      expect({ start: readPacific(dtstart), end: readPacific(dtend) }, `${dtstart} / ${dtend}`).toEqual({ start, end });
    }
  });

  it('is right on that night outside the repeated hour', () => {
    // 00:00 PDT for 45 minutes, and 02:30 PST for an hour.
    for (const [start, minutes, end] of [
      ['2026-11-01T07:00:00.000Z', 45, '2026-11-01T07:45:00.000Z'],
      ['2026-11-01T10:30:00.000Z', 60, '2026-11-01T11:30:00.000Z'],
    ] as const) {
      const ics = buildCalendarEvent({ ...base, start: new Date(start), durationMinutes: minutes });
      expect({ start: readPacific(property(ics, 'DTSTART')[0]), end: readPacific(property(ics, 'DTEND')[0]) }).toEqual({ start, end });
    }
  });
});

describe('buildCalendarEvent: text', () => {
  it('escapes commas, semicolons, backslashes and line breaks in SUMMARY, DESCRIPTION and LOCATION', () => {
    const ics = buildCalendarEvent({
      ...base,
      summary: 'Botox, fillers; and more',
      description: 'Bring ID\nArrive early, please; parking: C:\\lot',
      location: '123 Main St, Suite 4; Irvine, CA',
    });
    expect(property(ics, 'SUMMARY')).toEqual(['SUMMARY:Botox\\, fillers\\; and more']);
    expect(property(ics, 'DESCRIPTION')).toEqual(['DESCRIPTION:Bring ID\\nArrive early\\, please\\; parking: C:\\\\lot']);
    expect(property(ics, 'LOCATION')).toEqual(['LOCATION:123 Main St\\, Suite 4\\; Irvine\\, CA']);
  });

  it('folds long lines at 75 octets, counting multi-byte UTF-8 characters, and unfolds to the original', () => {
    const summary = 'Ästhetik-Behandlung — 美容トリートメント 🌸 '.repeat(6);
    const description = `Manage or cancel: ${'https://ocmedspadirectory.com/bookings/manage/'}${'a'.repeat(120)}\nNotes: ${'Café crème, s’il vous plaît; '.repeat(8)}`;
    const location = `${'Ünit 5, Ocean Blvd 🏖️ '.repeat(5)}`;
    const ics = buildCalendarEvent({ ...base, summary, description, location, attendee: { name: 'Zoë Nguyễn '.repeat(10).trim(), email: 'zoe@example.com' } });

    const physical = ics.split('\r\n').slice(0, -1);
    for (const line of physical) {
      expect(octets(line), line).toBeLessThanOrEqual(75);
      // Never inside a character: every piece is well-formed text on its own.
      expect(line.isWellFormed(), line).toBe(true);
    }
    // It did fold: some lines are continuations and some are full.
    expect(physical.some((line) => line.startsWith(' '))).toBe(true);
    expect(Math.max(...physical.map(octets))).toBeGreaterThan(70);

    expect(property(ics, 'SUMMARY')).toEqual([`SUMMARY:${escapeText(summary)}`]);
    expect(property(ics, 'DESCRIPTION')).toEqual([`DESCRIPTION:${escapeText(description)}`]);
    expect(property(ics, 'LOCATION')).toEqual([`LOCATION:${escapeText(location)}`]);
    expect(property(ics, 'ATTENDEE')[0]).toContain('CN="Zoë Nguyễn Zoë Nguyễn');
  });
});

describe('escapeText', () => {
  it.each([
    ['a,b;c\\d\ne\r\nf\rg', 'a\\,b\\;c\\\\d\\ne\\nf\\ng'],
    ['\\n', '\\\\n'],
    ['plain: text', 'plain: text'],
    ['', ''],
  ])('escapes backslash first, then semicolons, commas and every kind of line break: %j as %j', (text, escaped) => {
    expect(escapeText(text)).toBe(escaped);
  });
});

describe('foldLine', () => {
  it('leaves lines of up to 75 octets alone', () => {
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('')).toBe('');
  });

  it('breaks at 75 octets on the first line and 74 (plus the space) on the rest', () => {
    const folded = foldLine('x'.repeat(75 + 74 + 10));
    expect(folded.split('\r\n')).toEqual(['x'.repeat(75), ` ${'x'.repeat(74)}`, ` ${'x'.repeat(10)}`]);
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('never splits a multi-byte character and round-trips through unfolding', () => {
    const samples = [
      'é'.repeat(100), // 2 octets each
      '美'.repeat(60), // 3 octets each
      '🌸'.repeat(50), // 4 octets, a surrogate pair in JS
      `${'x'.repeat(74)}é${'y'.repeat(80)}`, // a 2-octet character straddling octet 75
      `${'x'.repeat(73)}🌸${'z'.repeat(100)}`,
      'DESCRIPTION:' + 'Ä美🌸a'.repeat(40),
    ];
    for (const sample of samples) {
      const folded = foldLine(sample);
      const pieces = folded.split('\r\n');
      expect(pieces.length, sample).toBeGreaterThan(1);
      for (const piece of pieces) {
        expect(octets(piece)).toBeLessThanOrEqual(75);
        expect(piece.isWellFormed()).toBe(true);
      }
      pieces.slice(1).forEach((piece) => expect(piece.startsWith(' ')).toBe(true));
      expect(unfold(folded)).toBe(sample);
    }
  });

  it('fills each folded line as far as the characters allow', () => {
    // 3-octet characters: 25 fit on the first line (75 octets), 24 on each continuation (1 + 72).
    const pieces = foldLine('美'.repeat(60)).split('\r\n');
    expect(pieces.map(octets)).toEqual([75, 73, 1 + 11 * 3]);
  });
});
