import { useEffect, useId, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { readVisitSource } from '#lib/client/booking.ts';
import { announceLive, prefillMember } from '#lib/client/island.ts';
import { postJson } from '#lib/client/post-json.ts';
import {
  bookedWords,
  bookVerb,
  dayParts,
  pickerHref,
  weekSpan,
  whenOf,
  type ChosenTime,
  type OpenWeek,
  type PickerPage,
  type PickerService,
} from '#lib/picker.ts';
import { EMAIL_INPUT, fieldErrors } from './field-errors.tsx';

export interface OpenTimesPickerProps {
  spa: { id: number; name: string; mode: 'instant' | 'request' };
  /** The treatments clients may book online. */
  services: PickerService[];
  /** Where the plain forms go (the page itself), and what they always carry. */
  page: PickerPage;
  /** The treatment chosen in the address, if any. */
  serviceId: number | null;
  /** The first day of the week the server showed. */
  from: string | null;
  /** The time chosen in the address (the details step). */
  chosen: ChosenTime | null;
  /** Why the time in the address cannot be given: shown above the week. */
  refused?: string | null;
  /** A refused post shown again: its messages by field, and what was typed. */
  errors?: Record<string, string>;
  values?: Record<string, string>;
  /** Moving a booking (the manage page): no treatment to choose, no details to give; the chosen time posts here. */
  move?: { action: string; token: string; current: string };
  idPrefix: string;
  /** The level of the day and details headings. */
  heading?: 'h2' | 'h3' | 'h4';
  /** The server's week of plain forms, shown until the island has its own. */
  children?: ReactNode;
}

type Field = 'name' | 'email' | 'phone' | 'message' | 'consent';
const ORDER: Field[] = ['name', 'email', 'phone', 'message', 'consent'];

interface Alternative {
  start: string;
  label: string;
  date: string;
  dateLabel: string;
}

interface Answer {
  message?: string;
  manageUrl?: string;
  booking?: { status: string };
  /** A step the booking still needs (a card for a deposit): the picker goes there. */
  next?: string;
  error?: { message?: string; fields?: Record<string, string>; details?: { alternatives?: Alternative[] } };
}

/** The first message of each field, in the form's order. */
function byField(entries: [string, string][]): Partial<Record<Field | 'start' | '_', string>> {
  const found: Partial<Record<string, string>> = {};
  for (const [field, message] of entries) found[field === 'serviceId' || field === 'clinicianId' ? 'start' : field] ??= message;
  return found;
}

// The open-time picker (issue 24). Rendered on the server as plain forms: a
// treatment select, the server's week (children: a form per day, a button per
// time) and, once a time is chosen, the details form that posts to
// /booking/time. Live, it shows a day strip, moves between weeks without a
// reload (GET /api/spas/{id}/slots), and books with POST
// /api/spas/{id}/bookings. What was chosen or typed before it went live stays:
// the select and fields are uncontrolled, and a time pressed meanwhile is
// taken from the server's form (client:intent holds that press until now).
export default function OpenTimesPicker(props: OpenTimesPickerProps) {
  const { spa, services, page, move, heading: Heading = 'h3', children } = props;
  const generatedId = useId();
  const id = (name: string) => `${props.idPrefix || generatedId}-${name}`;
  const verb = bookVerb(spa.mode);

  const [live, setLive] = useState(false);
  const [serviceId, setServiceId] = useState(props.serviceId);
  const [week, setWeek] = useState<OpenWeek | null>(null);
  const [day, setDay] = useState<string | null>(null);
  const [chosen, setChosen] = useState(props.chosen);
  const [note, setNote] = useState('');
  const [loading, setLoading] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field | 'start' | '_', string>>>(props.errors ?? {});
  const [sending, setSending] = useState(false);
  const [taken, setTaken] = useState<Alternative[] | null>(null);
  const [done, setDone] = useState<{ message: string; manage: string; confirmed: boolean } | null>(null);

  const root = useRef<HTMLDivElement>(null);
  const select = useRef<HTMLSelectElement>(null);
  const details = useRef<HTMLFormElement>(null);
  const request = useRef<AbortController | null>(null);
  const inFlight = useRef(false);
  /** What to focus once the next render is on screen (a CSS selector inside the picker). */
  const focusNext = useRef<string | null>(null);

  const service = services.find((s) => s.id === serviceId);

  useEffect(() => {
    setLive(true);
    // A treatment chosen before the island was live is the one to show; while a time is chosen, its
    // week loads only if the visitor goes back to it.
    const picked = Number(select.current?.value) || props.serviceId;
    setServiceId(picked);
    if (picked && !props.chosen) void loadWeek(picked, picked === props.serviceId ? props.from : null, true);
  }, []);

  // Said once the render with `live` is on screen: a form held meanwhile is
  // sent again at once, and must meet handlers that know the island is live.
  useEffect(() => {
    if (live) announceLive(root.current);
  }, [live]);

  useEffect(() => prefillMember(details.current), [chosen]);

  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    const node = root.current;
    (node?.matches(target) ? node : node?.querySelector<HTMLElement>(target))?.focus();
  });

  /** The week from `from` (this week when null); `adopt`: the first load, which replaces the server's forms. */
  async function loadWeek(forService: number, from: string | null, adopt = false) {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    const params = new URLSearchParams({ service: String(forService), days: '7' });
    if (from) params.set('from', from);
    if (move) params.set('booking', move.token);
    setLoading(true);
    if (!adopt) setNote('Loading open times…');
    try {
      const response = await fetch(`/api/spas/${spa.id}/slots?${params}`, { signal: controller.signal });
      if (!response.ok) throw new Error(String(response.status));
      const next = (await response.json()) as OpenWeek;
      // Focus on one of the server's buttons moves to the same button of the day strip.
      const focused = document.activeElement;
      if (adopt && focused instanceof HTMLElement && root.current?.contains(focused)) {
        const time = focused.dataset.openTime;
        const link = focused.dataset.weekLink;
        focusNext.current = time ? `[data-time="${time}"]` : link ? `[data-week="${link}"]` : null;
      }
      const first = next.dates.find((d) => d.times.length > 0);
      setWeek(next);
      setDay(first?.date ?? next.dates[0]?.date ?? null);
      const count = next.dates.reduce((sum, d) => sum + d.times.length, 0);
      setNote(adopt ? '' : `${count} open ${count === 1 ? 'time' : 'times'}, ${weekSpan(next)}`);
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
      // The plain page still works: load it whole.
      window.location.assign(pickerHref(page, { service: forService, from }));
    } finally {
      if (request.current === controller) setLoading(false);
    }
  }

  function onServiceChange() {
    const picked = Number(select.current?.value) || null;
    setServiceId(picked);
    setChosen(null);
    setTaken(null);
    if (picked) void loadWeek(picked, null);
    else setWeek(null);
  }

  function choose(time: ChosenTime) {
    setChosen(time);
    setTaken(null);
    setErrors({});
    focusNext.current = '[data-details-heading]';
  }

  function chooseAnother() {
    const start = chosen?.start;
    setChosen(null);
    setTaken(null);
    if (week && chosen && week.dates.some((d) => d.date === chosen.date)) setDay(chosen.date);
    else if (serviceId && chosen) void loadWeek(serviceId, chosen.date);
    focusNext.current = start ? `[data-time="${start}"]` : '[data-day-heading]';
  }

  /** A press on one of the server's forms: a time of its week, or the treatment's "See open times". */
  function onServerForm(event: SubmitEvent<HTMLDivElement>) {
    if (!live) return;
    const submitter = event.submitter;
    if (submitter instanceof HTMLButtonElement && submitter.name === 'start' && submitter.dataset.when) {
      event.preventDefault();
      choose({ start: submitter.value, label: submitter.dataset.when, date: submitter.closest('[data-open-day]')?.getAttribute('data-open-day') ?? '' });
    } else if (select.current && event.target === select.current.form) {
      event.preventDefault();
      onServiceChange();
    }
  }

  async function onBook(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current || !chosen || !serviceId) return;
    inFlight.current = true;
    const form = event.currentTarget;
    try {
      const data = new FormData(form);
      const text = (name: string) => String(data.get(name) ?? '');
      // The endpoint checks it all with the form's schema (the consent box included) and names each field
      // it refuses: the island ships no schema of its own.
      const input = {
        serviceId,
        start: chosen.start,
        name: text('name'),
        email: text('email'),
        phone: text('phone'),
        message: text('message'),
        consent: data.get('consent') !== null,
      };
      setSending(true);
      setErrors({});
      const response = await postJson(`/api/spas/${spa.id}/bookings`, { ...input, ...readVisitSource() });
      const answer = (await response.json().catch(() => ({}))) as Answer;
      if (response.ok && answer.next?.startsWith('/')) return window.location.assign(answer.next);
      if (response.ok) {
        setDone({ message: answer.message ?? '', manage: answer.manageUrl ?? '/', confirmed: answer.booking?.status === 'confirmed' });
        focusNext.current = '[data-booked]';
      } else if (response.status === 409) {
        setTaken(answer.error?.details?.alternatives ?? []);
        focusNext.current = '[data-taken]';
      } else {
        showErrors(byField(Object.entries(answer.error?.fields ?? { _: answer.error?.message ?? 'Nothing was booked. Please try again.' })));
      }
    } catch {
      showErrors({ _: 'Nothing was booked: the connection failed. Please try again or call the spa.' });
    } finally {
      inFlight.current = false;
      setSending(false);
    }
  }

  function showErrors(found: Partial<Record<Field | 'start' | '_', string>>) {
    setErrors(found);
    const first = ORDER.find((field) => found[field]);
    focusNext.current = first ? `[name="${first}"]` : '[data-form-error]';
  }

  const { field, consent } = fieldErrors(errors, id);
  const shownDay = week?.dates.find((d) => d.date === day) ?? week?.dates[0];
  const backHref = chosen ? pickerHref(page, { service: serviceId, from: chosen.date }) : '';

  if (done) {
    return (
      <div ref={root} className="scroll-mt-24 rounded-xl border border-brand-700/25 bg-brand-50 p-5" role="status" tabIndex={-1} data-booked>
        <Heading className="font-serif text-2xl text-ink">{bookedWords(done.confirmed).heading}</Heading>
        <p className="mt-2 text-lg text-ink" data-confirmation>
          {done.message}
        </p>
        <p className="mt-2 text-ink-muted">{bookedWords(done.confirmed).next}</p>
        <a className="btn-secondary mt-4" href={done.manage}>
          View or cancel your booking
        </a>
      </div>
    );
  }

  return (
    <div ref={root} className="grid gap-6" onSubmit={onServerForm} data-open-times aria-busy={loading}>
      {move ? (
        <p className="text-ink-muted">
          Your appointment now: <strong className="font-semibold text-ink">{move.current}</strong>
        </p>
      ) : (
        <form method="get" action={`${page.path}#${page.anchor}`} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          {Object.entries(page.hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <div className="field flex-1">
            <label htmlFor={id('service')} className="label">
              Treatment
            </label>
            <select
              ref={select}
              id={id('service')}
              name="service"
              className="input"
              defaultValue={props.serviceId ?? ''}
              // Always, not only once live: a key pressed while the island hydrates, or in
              // the frame before the live render, changes the treatment too, and was lost.
              onChange={onServiceChange}
            >
              <option value="">Choose a treatment</option>
              {services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-primary shrink-0">
            See open times
          </button>
        </form>
      )}

      <p className="sr-only" aria-live="polite" data-picker-note>
        {note}
      </p>

      {props.refused && !chosen && (
        <p role="alert" className="rounded-xl border border-danger-700/25 bg-danger-100 p-4 text-danger-700" data-refused>
          {props.refused}
        </p>
      )}

      {chosen ? (
        <section className="grid gap-4" aria-labelledby={id('details-heading')} data-details>
          <div>
            <Heading id={id('details-heading')} className="scroll-mt-24 font-serif text-2xl text-ink" tabIndex={-1} data-details-heading>
              {move ? 'Move your appointment' : `${verb} ${service?.name ?? 'this time'}`}
            </Heading>
            <p className="mt-1 text-lg text-ink" data-chosen={chosen.start}>
              {chosen.label}
            </p>
            {spa.mode === 'request' && !move && <p className="mt-1 text-sm text-ink-muted">{spa.name} holds this time for you and confirms it by e-mail.</p>}
            {live ? (
              <button type="button" className="btn-ghost mt-2 -ml-3" onClick={chooseAnother}>
                Choose another time
              </button>
            ) : (
              <a className="link mt-2 inline-block" href={backHref}>
                Choose another time
              </a>
            )}
          </div>
          {taken && (
            <div role="alert" tabIndex={-1} className="scroll-mt-24 rounded-xl border border-danger-700/25 bg-danger-100 p-4" data-taken>
              <p className="font-semibold text-danger-700">That time was just taken</p>
              {taken.length > 0 ? (
                <>
                  <p className="mt-1 text-ink">Someone booked it a moment before you. These times are open:</p>
                  <ul className="mt-3 flex flex-wrap gap-2" data-alternatives>
                    {taken.map((alternative) => (
                      <li key={alternative.start}>
                        <button
                          type="button"
                          className="btn-secondary"
                          onClick={() =>
                            choose({
                              start: alternative.start,
                              label: whenOf({ date: alternative.date, label: alternative.dateLabel }, alternative),
                              date: alternative.date,
                            })
                          }
                        >
                          {alternative.dateLabel}, {alternative.label}
                        </button>
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                <p className="mt-1 text-ink">Someone booked it a moment before you, and no other time is open this week.</p>
              )}
            </div>
          )}
          {move ? (
            <form method="post" action={move.action}>
              <input type="hidden" name="intent" value="reschedule" />
              <input type="hidden" name="start" value={chosen.start} />
              <button type="submit" className="btn-primary btn-lg">
                Move my appointment to {chosen.label}
              </button>
            </form>
          ) : (
            <form
              ref={details}
              method="post"
              action="/booking/time"
              noValidate
              onSubmit={onBook}
              className="grid gap-5 sm:grid-cols-2"
              aria-busy={sending}
              data-details-form
            >
              <input type="hidden" name="spaId" value={spa.id} />
              <input type="hidden" name="serviceId" value={serviceId ?? ''} />
              <input type="hidden" name="start" value={chosen.start} />
              {errors._ && (
                <p role="alert" tabIndex={-1} className="field-error sm:col-span-2" data-form-error>
                  {errors._}
                </p>
              )}
              {errors.start && (
                <p role="alert" className="field-error sm:col-span-2" data-error-for="start">
                  {errors.start}
                </p>
              )}
              {field(
                'name',
                <>
                  Full name <span aria-hidden="true">*</span>
                </>,
                (controlProps) => (
                  <input {...controlProps} type="text" autoComplete="name" required maxLength={100} defaultValue={props.values?.name ?? ''} />
                ),
              )}
              {field(
                'email',
                <>
                  Email <span aria-hidden="true">*</span>
                </>,
                (controlProps) => (
                  <input {...controlProps} {...EMAIL_INPUT} required maxLength={254} defaultValue={props.values?.email ?? ''} />
                ),
              )}
              {field(
                'phone',
                'Phone',
                (controlProps) => (
                  <input {...controlProps} type="tel" autoComplete="tel" inputMode="tel" maxLength={30} defaultValue={props.values?.phone ?? ''} />
                ),
                { optional: true },
              )}
              {field(
                'message',
                'Message',
                (controlProps) => (
                  <textarea {...controlProps} rows={3} maxLength={2000} defaultValue={props.values?.message ?? ''} />
                ),
                { optional: true, wide: true },
              )}
              {consent('consent', 'booking', props.values?.consent === 'true' || props.values?.consent === 'on')}
              <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
                <p className="text-sm text-ink-muted">Fields marked * are required. No payment is taken now.</p>
                <button type="submit" className="btn-primary btn-lg shrink-0" aria-disabled={sending || undefined}>
                  {sending ? 'Sending…' : spa.mode === 'instant' ? 'Book this time' : 'Request this time'}
                </button>
              </div>
            </form>
          )}
        </section>
      ) : week && live ? (
        <DayStrip
          week={week}
          day={shownDay}
          heading={Heading}
          onDay={(date) => {
            setDay(date);
            focusNext.current = null;
          }}
          onWeek={(from, which) => {
            focusNext.current = `[data-week="${which}"]`;
            if (serviceId) void loadWeek(serviceId, from);
          }}
          onTime={(time) => shownDay && choose({ start: time.start, label: whenOf(shownDay, time), date: shownDay.date })}
          onNext={(date) => {
            if (week.dates.some((d) => d.date === date)) setDay(date);
            else if (serviceId) void loadWeek(serviceId, date);
            focusNext.current = '[data-day-heading]';
          }}
          id={id}
        />
      ) : (
        children
      )}
    </div>
  );
}

interface DayStripProps {
  week: OpenWeek;
  day: OpenWeek['dates'][number] | undefined;
  heading: 'h2' | 'h3' | 'h4';
  onDay: (date: string) => void;
  onWeek: (from: string, which: 'previous' | 'next') => void;
  onTime: (time: { start: string; label: string }) => void;
  onNext: (date: string) => void;
  id: (name: string) => string;
}

/** The live week: a strip of seven days, the chosen day's times, and the way to the next or previous week. */
function DayStrip({ week, day, heading: Heading, onDay, onWeek, onTime, onNext, id }: DayStripProps) {
  const next = week.nextAvailable;
  return (
    <div className="grid gap-5" data-day-strip>
      <p className="rounded-xl bg-brand-50 px-4 py-3 text-ink" data-next-available>
        {next ? (
          <>
            Next available:{' '}
            <button type="button" className="link text-left" onClick={() => onNext(next.date)}>
              {next.label}
            </button>
          </>
        ) : (
          `${week.spa.name} has no open time for ${week.service.name} in the coming weeks. Send a request and the spa will answer.`
        )}
      </p>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <button
          type="button"
          className="btn-secondary px-4"
          // Not disabled while a week loads: a disabled button would drop the keyboard focus.
          disabled={!week.previous}
          onClick={() => week.previous && onWeek(week.previous, 'previous')}
          data-week="previous"
        >
          <span aria-hidden="true">←</span> Earlier<span className="sr-only"> week</span>
        </button>
        <p className="order-first w-full text-sm text-ink-muted sm:order-none sm:w-auto sm:text-center" id={id('week-span')}>
          {weekSpan(week)}
        </p>
        <button type="button" className="btn-secondary px-4" disabled={!week.next} onClick={() => week.next && onWeek(week.next, 'next')} data-week="next">
          Later<span className="sr-only"> week</span> <span aria-hidden="true">→</span>
        </button>
      </div>
      <ul className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1 sm:grid sm:grid-cols-7" aria-labelledby={id('week-span')}>
        {week.dates.map((d) => {
          const parts = dayParts(d);
          const count = d.times.length;
          const selected = d.date === day?.date;
          return (
            <li key={d.date} className="shrink-0">
              <button
                type="button"
                className={`flex min-h-11 w-16 flex-col items-center rounded-xl border px-2 py-2 text-sm sm:w-full ${
                  selected ? 'border-brand-700 bg-brand-700 text-white' : 'border-stone-dark bg-white text-ink hover:bg-brand-50'
                }`}
                aria-pressed={selected}
                onClick={() => onDay(d.date)}
                data-day={d.date}
              >
                <span className="font-semibold">{parts.weekday} </span>
                <span className="text-lg leading-tight">{parts.day}</span>
                <span className="sr-only">, </span>
                <span className={`text-xs ${selected ? 'text-white' : 'text-ink-muted'}`}>
                  {count === 0 ? 'none' : count}
                  <span className="sr-only">{count === 0 ? ' open' : count === 1 ? ' open time' : ' open times'}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {day && (
        <section aria-labelledby={id('day-heading')}>
          <Heading id={id('day-heading')} className="scroll-mt-24 font-sans text-base font-semibold text-ink" tabIndex={-1} data-day-heading>
            {day.label}
          </Heading>
          {day.times.length > 0 ? (
            <ul className="mt-3 flex flex-wrap gap-2" aria-label={`Open times on ${day.label}`}>
              {day.times.map((time) => (
                <li key={time.start}>
                  <button type="button" className="btn-secondary min-w-24 px-4" onClick={() => onTime(time)} data-time={time.start}>
                    {time.label}
                    <span className="sr-only"> on {day.label}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-ink-muted">No open times on {day.label}. Choose another day.</p>
          )}
        </section>
      )}
    </div>
  );
}
