// The posts of /owner/spas/{id}/availability, one small form per thing (the
// booking rules, the weekly hours, a date, a service, a clinician's hours or
// time off), each read with its schema (src/lib/availability-schema.ts) and
// saved by settings.ts. The page has checked who may act on the spa. A change
// of hours that leaves bookings outside them is not saved until the owner
// says what becomes of those bookings (409 with the list, the form kept).
import {
  BOOKING_RULE_FIELDS,
  bookingRulesSchema,
  dateHoursSchema,
  serviceBookingSchema,
  timeOffSchema,
  WEEK_FIELDS,
  weekFromFields,
} from '#lib/availability-schema.ts';
import { parseId } from '#lib/ids.ts';
import { isOpenAtAll } from '#lib/opening-hours.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { parseForm, pick, refuse, seeOther, type FormRefusal } from '../forms.ts';
import {
  addTimeOff,
  affectedBy,
  removeDateHours,
  removeTimeOff,
  saveBookingRules,
  saveClinicianHours,
  saveDateHours,
  saveServiceBooking,
  saveWeeklyHours,
  settleAffected,
  type AffectedBooking,
  type HoursChange,
} from './settings.ts';
import { forgetSlots } from './slots.ts';

export const AVAILABILITY_NOTICES = {
  rules: 'Booking settings saved.',
  hours: 'Weekly hours saved. Your page shows them after the next publish, within a minute.',
  date: 'Date saved.',
  'date-removed': 'Date removed: the weekly hours apply again that day.',
  service: 'Service saved.',
  'clinician-hours': 'Working hours saved.',
  'time-off': 'Time off saved.',
  'time-off-removed': 'Time off removed.',
  cancelled: 'Saved. The bookings you chose to cancel are cancelled, and each client has been told.',
} as const;
export type AvailabilityNotice = keyof typeof AVAILABILITY_NOTICES;

/** Which form a refused post came from, what was typed, and the bookings a change would leave out. */
export interface AvailabilityForm {
  intent: string;
  id: number | null;
  fields: Record<string, string>;
  affected?: AffectedBooking[];
}

export const DATE_FIELDS = ['date', 'closed', 'note', 'date.open1', 'date.close1', 'date.open2', 'date.close2'] as const;
export const TIME_OFF_FIELDS = ['firstDay', 'lastDay', 'note'] as const;
const NOT_FOUND = 'That item is not part of this listing any more. Reload the page.';

export interface AvailabilityPost {
  spaId: number;
  user: SessionUser;
  origin: string;
  today: string;
  now?: number;
}

export function handleAvailabilityPost(form: URLSearchParams, post: AvailabilityPost): Response | FormRefusal<AvailabilityForm> {
  const answer = handle(form, post);
  // Whatever was saved changes the open times: this process answers afresh at once.
  if (answer instanceof Response) forgetSlots(post.spaId);
  return answer;
}

function handle(form: URLSearchParams, post: AvailabilityPost): Response | FormRefusal<AvailabilityForm> {
  const path = `/owner/spas/${post.spaId}/availability`;
  const intent = form.get('intent') ?? '';
  const id = parseId(form.get('id'));
  const invalid = (fields: Record<string, string>, errors: Record<string, string>, status = 422) => refuse(status, errors, { intent, id, fields });
  const done = (notice: AvailabilityNotice, hash?: string) => seeOther(path, notice, hash);

  /** Saves a change of hours, unless it leaves bookings outside and the owner has not said what becomes of them. */
  const withDecision = (fields: Record<string, string>, change: HoursChange, save: () => boolean | void, notice: AvailabilityNotice, hash: string) => {
    const decision = form.get('decision');
    const affected = affectedBy(post.spaId, change, post.now);
    if (affected.length > 0 && decision !== 'keep' && decision !== 'cancel') {
      const n = affected.length;
      return refuse(
        409,
        {
          _: `${n} ${n === 1 ? 'booking falls' : 'bookings fall'} outside these hours. Keep ${n === 1 ? 'it' : 'them'}, or cancel ${n === 1 ? 'it' : 'them'} (the client is told), and save.`,
        },
        { intent, id, fields, affected },
      );
    }
    if (save() === false) return invalid(fields, { _: NOT_FOUND }, 404);
    const cancelled = decision === 'cancel' ? settleAffected(affected, 'cancel', post.user, post.origin) : 0;
    return done(cancelled > 0 ? 'cancelled' : notice, hash);
  };

  switch (intent) {
    case 'rules': {
      const fields = pick(form, BOOKING_RULE_FIELDS);
      const parsed = parseForm(bookingRulesSchema, fields);
      if (!parsed.ok) return invalid(fields, parsed.errors);
      const saved = saveBookingRules(post.spaId, parsed.data);
      return saved.ok ? done('rules', 'rules-heading') : invalid(fields, saved.fields ?? { _: saved.message });
    }
    case 'hours': {
      const fields = pick(form, WEEK_FIELDS);
      const read = weekFromFields(fields);
      if (!read.ok) return invalid(fields, read.errors);
      const week = read.week;
      return withDecision(fields, { kind: 'week', week: isOpenAtAll(week) ? week : null }, () => saveWeeklyHours(post.spaId, week), 'hours', 'hours-heading');
    }
    case 'date': {
      const fields = pick(form, DATE_FIELDS);
      const parsed = parseForm(dateHoursSchema(post.today), fields, { date: fields.date, closed: fields.closed === 'on', note: fields.note, times: fields });
      if (!parsed.ok) return invalid(fields, parsed.errors);
      const input = parsed.data;
      return withDecision(fields, { kind: 'date', date: input.date, ranges: input.ranges }, () => saveDateHours(post.spaId, input), 'date', 'dates-heading');
    }
    case 'remove-date':
      return removeDateHours(post.spaId, form.get('date') ?? '') ? done('date-removed', 'dates-heading') : invalid({}, { _: NOT_FOUND }, 404);
    case 'service': {
      const fields = pick(form, ['bookableOnline', 'bufferAfterMinutes']);
      const parsed = parseForm(serviceBookingSchema, fields, { bookableOnline: fields.bookableOnline === 'on', bufferAfterMinutes: fields.bufferAfterMinutes });
      if (!parsed.ok) return invalid(fields, parsed.errors);
      return id !== null && saveServiceBooking(post.spaId, id, parsed.data) ? done('service', `service-${id}`) : invalid(fields, { _: NOT_FOUND }, 404);
    }
    case 'clinician-hours': {
      const fields = { ...pick(form, WEEK_FIELDS), always: form.get('always') ?? '' };
      if (id === null) return invalid(fields, { _: NOT_FOUND }, 404);
      let week = null;
      if (fields.always !== 'on') {
        const read = weekFromFields(fields);
        if (!read.ok) return invalid(fields, read.errors);
        week = read.week;
      }
      return withDecision(
        fields,
        { kind: 'clinician-hours', clinicianId: id, week },
        () => saveClinicianHours(post.spaId, id, week),
        'clinician-hours',
        `clinician-${id}`,
      );
    }
    case 'time-off': {
      const fields = pick(form, TIME_OFF_FIELDS);
      if (id === null) return invalid(fields, { _: NOT_FOUND }, 404);
      const parsed = parseForm(timeOffSchema(post.today), fields);
      if (!parsed.ok) return invalid(fields, parsed.errors);
      const input = parsed.data;
      return withDecision(fields, { kind: 'time-off', clinicianId: id, ...input }, () => addTimeOff(post.spaId, id, input), 'time-off', `clinician-${id}`);
    }
    case 'remove-time-off':
      return id !== null && removeTimeOff(post.spaId, id) ? done('time-off-removed') : invalid({}, { _: NOT_FOUND }, 404);
    default:
      return invalid({}, { _: 'Unknown action. Reload the page and try again.' }, 400);
  }
}
