// What the open-time picker's two renderings share (issue 24): the server's
// week of plain forms (src/components/booking/OpenTimesWeek.astro) and the
// island (src/components/islands/OpenTimesPicker.tsx). Types of the slots
// endpoint's answer as the browser reads it, and the picker's addresses: the
// state of a plain picker lives in its page's query (?service, ?from, ?start).
// No time-zone code: every label comes ready from the server.

export interface PickerService {
  id: number;
  name: string;
  /** "Botox Cosmetic · 30 minutes · From $14.00 per unit" */
  label: string;
}

export interface ChosenTime {
  /** The instant as the slots endpoint writes it. */
  start: string;
  /** 'Tuesday, March 16, 2027, 9:00 AM Pacific' */
  label: string;
  /** Its Pacific date ('YYYY-MM-DD'): the week to go back to. */
  date: string;
}

/** GET /api/spas/{id}/slots as the picker reads it (src/lib/server/availability/slots.ts writes it). */
export interface OpenWeek {
  spa: { id: number; name: string; mode: 'instant' | 'request' };
  service: { id: number; name: string };
  from: string;
  days: number;
  previous: string | null;
  next: string | null;
  nextAvailable: { start: string; label: string; date: string } | null;
  dates: { date: string; label: string; times: { start: string; label: string }[] }[];
}

/** Where a plain picker's forms and links go: its page, the fields it always carries, and the section to scroll to. */
export interface PickerPage {
  path: string;
  hidden: Record<string, string>;
  anchor: string;
}

/** The picker page's address for a state (the page's own fields first). */
export function pickerHref(page: PickerPage, state: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams(page.hidden);
  for (const [name, value] of Object.entries(state)) if (value !== null && value !== undefined && value !== '') params.set(name, String(value));
  const query = params.toString();
  return `${page.path}${query ? `?${query}` : ''}#${page.anchor}`;
}

/** 'Mon' and '15' of 'Monday, March 15' on '2027-03-15': the day strip's two lines. */
export function dayParts(day: { date: string; label: string }): { weekday: string; day: string } {
  return { weekday: day.label.slice(0, 3), day: String(Number(day.date.slice(8, 10))) };
}

/** 'Monday, March 15 – Sunday, March 21': the span of a week's days. */
export function weekSpan(week: Pick<OpenWeek, 'dates'>): string {
  const first = week.dates[0];
  const last = week.dates.at(-1);
  return first && last ? `${first.label} – ${last.label}` : '';
}

/** The sentence that says what choosing a time does: an instant spa books it, a request spa holds it. */
export const bookVerb = (mode: 'instant' | 'request') => (mode === 'instant' ? 'Book' : 'Request');

/** What a booked time says, in the island and on the plain page: booked outright, or held until the spa confirms. */
export const bookedWords = (confirmed: boolean) =>
  confirmed
    ? { heading: 'You are booked', next: 'The confirmation, with a calendar invitation, is on its way to your inbox.' }
    : { heading: 'Your time is held', next: 'We will e-mail you when the spa confirms. Your receipt is on its way to your inbox.' };

/** 'Tuesday, March 16, 2027, 9:00 AM Pacific' from a day and one of its times (the server's whenLabel, from its parts). */
export const whenOf = (day: { date: string; label: string }, time: { label: string }) => `${day.label}, ${day.date.slice(0, 4)}, ${time.label} Pacific`;
