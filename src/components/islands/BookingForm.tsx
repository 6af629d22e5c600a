import { useEffect, useId, useMemo, useRef, useState, type SubmitEvent } from 'react';
import type { TrackedEvent } from '#lib/client/analytics.ts';
import { BOOKING_REQUESTED_EVENT, readVisitSource, takeScheduledService } from '#lib/client/booking.ts';
import { announceLive, prefillMember } from '#lib/client/island.ts';
import { loadOnce } from '#lib/client/load-once.ts';
import { postJson } from '#lib/client/post-json.ts';
import { toast } from '#lib/client/toasts.ts';
import { pacificDate } from '#lib/dates.ts';
import { unpackTreatments, type DirectoryServiceChoice } from '#lib/treatment-choices.ts';
import { EMAIL_INPUT, fieldErrors, schemaFormProps } from './field-errors.tsx';

export interface ServiceChoice {
  id: number;
  name: string;
  /** "Complimentary", "From $150.00"... */
  priceLabel: string;
}

export interface SpaChoice {
  id: number;
  name: string;
  services: ServiceChoice[];
}

interface Props {
  /** The spa the request is for; without one it goes to the directory's concierge. */
  spa?: SpaChoice;
  /** Pacific "today" when the page was built; replaced by the browser's own on load. */
  today: string;
  /** A signed-in visitor's name and address, filled in (and kept when the form resets). */
  prefill?: { name?: string; email?: string };
  idPrefix?: string;
  /** Every treatment in the directory (packTreatments): a choice for requests that name no spa. */
  treatments?: string;
  /**
   * Where the server sends a visitor whose request it took without JavaScript
   * (a path on this site), instead of its own confirmation page: the member
   * home, whose list then shows the new request.
   */
  returnTo?: string;
  /** A request the server refused (posted before the island was live, or without JavaScript), shown again: its messages and what was typed. */
  errors?: Partial<Record<Field, string>>;
  values?: Partial<Record<Field, string>>;
}

type Field = 'name' | 'email' | 'phone' | 'serviceId' | 'preferredDate' | 'message' | 'consent';
type Values = Record<Exclude<Field, 'consent'>, string> & { consent: boolean };

const ORDER: Field[] = ['name', 'email', 'phone', 'serviceId', 'preferredDate', 'message', 'consent'];

const SUCCESS = { title: 'Booking Request Submitted!', description: "We'll contact you within 24 hours to confirm your appointment." };
const FAILURE = {
  title: 'Booking Failed',
  description: 'There was an error submitting your request. Please try again or call us directly.',
  variant: 'destructive',
} as const;

interface ErrorBody {
  error?: { fields?: Record<string, string> };
}

// The schema (zod) is a third of the form's weight and most visitors never
// touch the form: it loads when someone starts filling it in.
/**
 * Reports a booking event (spec 7) to the page's analytics script, which
 * BookingRequest.astro renders beside this form. The island does not import
 * analytics.ts itself: a module shared with it would make that script a file
 * loaded before the first paint instead of a few lines in the page.
 */
const report = (detail: TrackedEvent) => document.dispatchEvent(new CustomEvent('analytics:track', { detail }));

const loadSchemas = loadOnce(() => import('#lib/booking-schema.ts'));
type Schemas = Awaited<ReturnType<typeof loadSchemas>>;

/**
 * The form's fields as they are in the page now. The inputs are uncontrolled:
 * the DOM holds the values, including whatever was typed before the island
 * hydrated (docs/decisions/0016), and this reads them when they are needed.
 */
function readForm(form: HTMLFormElement): Values {
  const data = new FormData(form);
  const text = (key: string) => {
    const value = data.get(key);
    return typeof value === 'string' ? value : '';
  };
  return {
    name: text('name'),
    email: text('email'),
    phone: text('phone'),
    serviceId: text('serviceId'),
    preferredDate: text('preferredDate'),
    message: text('message'),
    consent: data.get('consent') !== null,
  };
}

/** Options grouped by category, in the order they come. */
function byCategory(services: DirectoryServiceChoice[]): [string, DirectoryServiceChoice[]][] {
  const groups = new Map<string, DirectoryServiceChoice[]>();
  for (const service of services) groups.set(service.category, [...(groups.get(service.category) ?? []), service]);
  return [...groups];
}

const categoryName = (category: string) => (category ? category.charAt(0).toUpperCase() + category.slice(1) : 'Other');

function firstErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '') as Field;
    if (ORDER.includes(field)) errors[field] ??= issue.message;
  }
  return errors;
}

// The booking and consultation request (spec 4 and 5). Server-rendered as a
// plain form that posts to /booking/request, so it works before hydration and
// without JavaScript; once live it validates with the endpoint's own schema
// and sends JSON. Its fields are uncontrolled (defaultValue): React never
// writes a value over what the visitor typed, before hydration or after.
export default function BookingForm({ spa, today: buildDay, idPrefix, prefill, treatments = '', returnTo, errors: refused, values }: Props) {
  const services = useMemo(() => unpackTreatments(treatments), [treatments]);
  const generatedId = useId();
  const id = (field: string) => `${idPrefix ?? generatedId}-${field}`;
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>(refused ?? {});
  const [submitted, setSubmitted] = useState(refused !== undefined);
  const [submitting, setSubmitting] = useState(false);
  const [today, setToday] = useState(buildDay);
  const [scheduled, setScheduled] = useState<{ id: number; label: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const schemaRef = useRef<Schemas['bookingFormSchema'] | null>(null);
  const inFlight = useRef(false);

  useEffect(() => {
    // The page may have been built yesterday: the minimum is the visitor's Pacific today.
    setToday(pacificDate());
    const carried = takeScheduledService();
    if (carried && !spa) setScheduled(carried);
    // A press on Submit while the island loaded is handed to it now (client:intent="submit").
    announceLive(formRef.current);
    return prefillMember(formRef.current);
  }, [spa]);

  function validate(next: Values, schema: Schemas['bookingFormSchema']) {
    const parsed = schema.safeParse(toInput(next));
    return parsed.success ? { data: parsed.data, errors: {} } : { data: null, errors: firstErrors(parsed.error.issues) };
  }

  function toInput(current: Values) {
    const serviceId = current.serviceId ? Number(current.serviceId) : undefined;
    return {
      name: current.name,
      email: current.email,
      phone: current.phone,
      preferredDate: current.preferredDate,
      message: current.message,
      consent: current.consent,
      ...(serviceId ? { serviceId } : {}),
      ...(spa ? { spaId: spa.id } : {}),
    };
  }

  function onChange() {
    // After the first attempt, messages follow the fields as they are corrected.
    if (submitted && schemaRef.current && formRef.current) setErrors(validate(readForm(formRef.current), schemaRef.current).errors);
  }

  function focusFirst(found: Partial<Record<Field, string>>) {
    const first = ORDER.find((field) => found[field]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    // A ref, not the state: a second press while the schema is still loading
    // must not get past this before the first has set `submitting`.
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      await submit();
    } finally {
      inFlight.current = false;
    }
  }

  async function submit() {
    setSubmitted(true);
    let schema: Schemas['bookingFormSchema'];
    try {
      schema = schemaRef.current ??= (await loadSchemas()).bookingFormSchema;
    } catch {
      // The page's scripts could not be fetched (offline, a new deployment):
      // the form still posts to the server, which checks everything itself.
      formRef.current?.submit();
      return;
    }
    const form = formRef.current;
    if (!form) return;
    const result = validate(readForm(form), schema);
    setErrors(result.errors);
    if (!result.data) {
      focusFirst(result.errors);
      return;
    }
    // Spec 5: the consent box is not sent, and the date goes as a date.
    const { consent: _consent, preferredDate, ...request } = result.data;
    const payload = { ...request, ...(preferredDate ? { preferredDate: new Date(preferredDate) } : {}), ...readVisitSource() };
    const entity = spa ? { entityType: 'spa' as const, entityId: String(spa.id) } : { entityType: 'page' as const, entityId: window.location.pathname };

    setSubmitting(true);
    try {
      const response = await postJson('/api/bookings', payload);
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as ErrorBody;
        const fieldErrors = firstErrors(Object.entries(body.error?.fields ?? {}).map(([field, message]) => ({ path: [field], message })));
        setErrors(fieldErrors);
        focusFirst(fieldErrors);
        throw new Error(`${response.status}`);
      }
      report({ eventType: 'booking', ...entity, source: 'booking_form', metadata: { action: 'submitted' } });
      // A spa that asks for a card on file or a deposit: the card step is the next page (no-show protection).
      const { next } = (await response.json().catch(() => ({}))) as { next?: string };
      if (next?.startsWith('/bookings/secure/')) {
        window.location.assign(next);
        return;
      }
      toast(SUCCESS);
      // Back to the defaults: empty, or the signed-in visitor's name and address.
      form.reset();
      document.dispatchEvent(new CustomEvent(BOOKING_REQUESTED_EVENT));
      setErrors({});
      setSubmitted(false);
      setScheduled(null);
    } catch (error) {
      // One step to try again (spec 3: a toast can carry an action).
      toast({ ...FAILURE, action: { label: 'Retry', onAction: () => formRef.current?.requestSubmit() } });
      report({
        eventType: 'booking',
        ...entity,
        source: 'booking_form',
        metadata: { action: 'error', value: error instanceof Error ? error.message : 'network' },
      });
    } finally {
      setSubmitting(false);
    }
  }

  const { field, consent } = fieldErrors(errors, id);

  return (
    <form
      ref={formRef}
      {...schemaFormProps('/booking/request', onSubmit, loadSchemas, submitting)}
      onChange={onChange}
      className="grid gap-5 sm:grid-cols-2"
      data-booking-form
    >
      {spa && <input type="hidden" name="spaId" value={spa.id} />}
      {returnTo && <input type="hidden" name="returnTo" value={returnTo} />}
      {spa && (
        <p className="text-ink-muted sm:col-span-2" data-booking-spa>
          Your request goes to <strong className="font-semibold text-ink">{spa.name}</strong>.
        </p>
      )}
      {field(
        'name',
        <>
          Full name <span aria-hidden="true">*</span>
        </>,
        (props) => (
          <input {...props} type="text" autoComplete="name" required maxLength={100} defaultValue={values?.name ?? prefill?.name} />
        ),
      )}
      {field(
        'email',
        <>
          Email <span aria-hidden="true">*</span>
        </>,
        (props) => (
          <input {...props} {...EMAIL_INPUT} required maxLength={254} defaultValue={values?.email ?? prefill?.email} />
        ),
      )}
      {field(
        'phone',
        'Phone',
        (props) => (
          <input {...props} type="tel" autoComplete="tel" inputMode="tel" maxLength={30} defaultValue={values?.phone ?? ''} />
        ),
        { optional: true },
      )}
      {field(
        'preferredDate',
        'Preferred date',
        (props) => (
          <input {...props} type="date" min={today} defaultValue={values?.preferredDate ?? ''} />
        ),
        { optional: true },
      )}
      {spa &&
        spa.services.length > 0 &&
        field(
          'serviceId',
          'Treatment',
          (props) => (
            <select {...props} defaultValue={values?.serviceId ?? ''}>
              <option value="">Not sure yet: I'd like advice</option>
              {spa.services.map((service) => (
                <option key={service.id} value={service.id}>
                  {`${service.name} (${service.priceLabel})`}
                </option>
              ))}
            </select>
          ),
          { optional: true, wide: true },
        )}
      {!spa &&
        !scheduled &&
        services.length > 0 &&
        field(
          'serviceId',
          'Treatment',
          (props) => (
            <select {...props} defaultValue={values?.serviceId ?? ''} data-treatment-choice>
              <option value="">Not sure yet: I'd like advice</option>
              {byCategory(services).map(([category, choices]) => (
                <optgroup key={category} label={categoryName(category)}>
                  {choices.map((service) => (
                    <option key={service.id} value={service.id}>
                      {`${service.name} at ${service.spaName} (${service.priceLabel})`}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          ),
          { optional: true, wide: true },
        )}
      {!spa && scheduled && (
        <div
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-stone bg-shell px-4 py-3 sm:col-span-2"
          data-scheduled-service
        >
          <p className="text-ink">
            <span className="text-ink-muted">Requesting: </span>
            <strong className="font-semibold">{scheduled.label}</strong>
          </p>
          <button type="button" className="btn-ghost" onClick={() => setScheduled(null)}>
            Remove<span className="sr-only"> {scheduled.label}</span>
          </button>
          <input type="hidden" name="serviceId" value={scheduled.id} />
        </div>
      )}
      {field(
        'message',
        'Message',
        (props) => (
          <textarea
            {...props}
            rows={4}
            maxLength={2000}
            placeholder="What would you like to treat? Any questions for the provider?"
            defaultValue={values?.message ?? ''}
          />
        ),
        { optional: true, wide: true },
      )}
      {consent('consent', 'request', values?.consent === 'true' || values?.consent === 'on')}
      <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-ink-muted">Fields marked * are required. No payment is taken now.</p>
        {/* aria-disabled, not disabled: a disabled button drops the keyboard focus to the page (issue 26). */}
        <button
          type="submit"
          className="btn-primary btn-lg shrink-0 whitespace-nowrap aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
          aria-disabled={submitting || undefined}
        >
          {submitting ? 'Submitting...' : 'Request Appointment'}
        </button>
      </div>
    </form>
  );
}
