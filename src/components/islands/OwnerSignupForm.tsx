// The spa registration form (spec 2 Owner signup, 5, 8). A plain form first:
// it posts to /owner/signup, which answers with a page (and 303s a signed-in
// owner's paid plan to Stripe Checkout). Live, it checks the fields with the
// endpoints' own schema, disables Submit while processing and asks:
//   Essential, or anyone not signed in: POST /api/owner/create-spa, then
//     "Success!" and /owner/login after 2 s;
//   Premium or Elite, signed in: POST /api/stripe/checkout with spaData, then
//     Stripe Checkout.
// Fields are uncontrolled (docs/decisions/0016): what was typed before
// hydration is what is sent.
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { loadOnce } from '#lib/client/load-once.ts';
import { postJson } from '#lib/client/post-json.ts';
import { afterToastShown, toast } from '#lib/client/toasts.ts';
import { LINK_SENT_LOGIN } from '#lib/owner-login.ts';
import { EMAIL_INPUT, fieldErrors, schemaFormProps, URL_INPUT } from './field-errors.tsx';
import { ELITE_UNAVAILABLE } from './SubscriptionPlans.tsx';

export interface SignupCity {
  id: number;
  name: string;
}

export type SignupTier = 'FREE' | 'PREMIUM' | 'ELITE';

interface Props {
  cities: SignupCity[];
  /** From ?tier= (unknown means FREE) or what was posted. */
  tier: SignupTier;
  billing: 'monthly' | 'annual';
  /** Plan names with prices, as the landing shows them. */
  planLabels: Record<SignupTier, string>;
  /** False without Stripe keys: only Essential is offered. */
  paymentsEnabled: boolean;
  /** The signed-in visitor's address: the listing is theirs. */
  signedInEmail?: string | null;
  /** What the server got when the form was posted without JavaScript, to correct. */
  values?: Record<string, string>;
  errors?: Record<string, string>;
}

type Field = 'spaName' | 'description' | 'address' | 'phone' | 'email' | 'website' | 'cityId' | 'ownerEmail';
const FIELD_ORDER: Field[] = ['spaName', 'ownerEmail', 'cityId', 'description', 'address', 'phone', 'email', 'website'];

// zod loads when someone starts to fill the form in, not with the page.
const loadSchemas = loadOnce(() => import('#lib/owner-signup-schema.ts'));
type Schemas = Awaited<ReturnType<typeof loadSchemas>>;

const FAILED = { title: 'Error', description: 'Failed to create spa listing. Please try again.', variant: 'destructive' } as const;
const MISSING = { title: 'Missing Information', description: 'Please fill in all required fields.', variant: 'destructive' } as const;

interface ErrorBody {
  url?: string;
  magicLinkSent?: boolean;
  continueToPayment?: boolean;
  signedIn?: boolean;
  error?: { code?: string; message?: string; fields?: Record<string, string> };
}

export default function OwnerSignupForm({ cities, tier, billing, planLabels, paymentsEnabled, signedInEmail, values = {}, errors: initialErrors = {} }: Props) {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>(initialErrors);
  const [processing, setProcessing] = useState(false);
  const [done, setDone] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const base = useId();
  const id = (field: string) => `${base}-${field}`;

  function focusFirst(fields: Partial<Record<Field, string>>) {
    const first = FIELD_ORDER.find((field) => fields[field]);
    if (first) (formRef.current?.elements.namedItem(first) as HTMLElement | null)?.focus();
  }

  function showFieldErrors(fields: Record<string, string>) {
    const known: Partial<Record<Field, string>> = {};
    for (const [key, message] of Object.entries(fields)) {
      const field = key.replace(/^spaData\./, '').replace(/^name$/, 'spaName') as Field;
      if (FIELD_ORDER.includes(field)) known[field] ??= message;
    }
    setErrors(known);
    focusFirst(known);
    return Object.keys(known).length > 0;
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (processing || done) return;
    const form = event.currentTarget;
    const input = Object.fromEntries(new FormData(form)) as Record<string, string>;
    let schema: Schemas;
    try {
      schema = await loadSchemas();
    } catch {
      // The script could not be fetched: the server answers the plain form.
      form.submit();
      return;
    }
    const missing = schema.missingFields(input);
    const parsed = schema.ownerSignupSchema.safeParse(input);
    if (missing.length > 0 || !parsed.success) {
      const fields: Record<string, string> = {};
      if (!parsed.success) for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      for (const field of missing) fields[field] = schema.SIGNUP_MESSAGES[field];
      showFieldErrors(fields);
      if (missing.length > 0) toast(MISSING);
      return;
    }
    setErrors({});
    setProcessing(true);
    const signup = parsed.data;
    const paid = signup.tier !== 'FREE' && paymentsEnabled;
    try {
      const response =
        paid && signedInEmail
          ? await postJson('/api/stripe/checkout', {
              tier: signup.tier,
              billing: signup.billing === 'annual' ? 'yearly' : 'monthly',
              spaData: schema.listingDataOf(signup),
            })
          : await postJson('/api/owner/create-spa', signup);
      const body = (await response.json().catch(() => ({}))) as ErrorBody;
      if (response.ok && body.url) {
        window.location.assign(body.url);
        return;
      }
      if (response.status === 201) {
        setDone(true);
        toast({
          title: 'Success!',
          description: body.magicLinkSent
            ? `Your listing was submitted. Check your e-mail for a sign-in link${body.continueToPayment ? ' that continues to payment' : ''}.`
            : body.signedIn
              ? 'Your listing was submitted for review.'
              : 'Your listing was submitted. Sign in with your e-mail to claim it.',
        });
        // The sign-in page then says a link is on its way instead of asking for the address again (issue 26).
        afterToastShown(2000, () => window.location.assign(body.magicLinkSent ? LINK_SENT_LOGIN : '/owner/login'));
        return;
      }
      setProcessing(false);
      if (response.status === 422 && body.error?.fields && showFieldErrors(body.error.fields)) {
        if (body.error.code === 'missing_information') toast(MISSING);
        return;
      }
      if (response.status === 429) toast({ title: 'Too many requests', description: body.error?.message ?? 'Please try again later.', variant: 'destructive' });
      else if (body.error?.message?.includes('Elite tier is at capacity')) toast({ ...ELITE_UNAVAILABLE, variant: 'destructive' });
      // Elite waits for the listing's review (issue 23.3): the server's words say what to do instead.
      else if (body.error?.code === 'elite_needs_approval') toast({ title: 'Elite after approval', description: body.error.message, variant: 'destructive' });
      else toast(FAILED);
    } catch {
      setProcessing(false);
      toast(FAILED);
    }
  }

  const { field } = fieldErrors(errors, id);
  const clearError = (field: Field) => {
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  };
  /** A control showing what was sent before, whose message goes once it is changed. */
  const resent = (field: Field) => ({ defaultValue: values[field], onChange: () => clearError(field) });

  return (
    <form
      ref={formRef}
      {...schemaFormProps(`/owner/signup?tier=${tier}`, onSubmit, loadSchemas, processing)}
      className="grid gap-5 sm:grid-cols-2"
      data-owner-signup-form
    >
      {field(
        'spaName',
        'Spa name *',
        (props) => (
          <input {...props} type="text" required maxLength={200} autoComplete="organization" {...resent('spaName')} />
        ),
        { wide: true },
      )}
      {field(
        'ownerEmail',
        'Your e-mail (owner) *',
        (props) => (
          <input
            {...props}
            {...EMAIL_INPUT}
            required
            maxLength={254}
            defaultValue={signedInEmail ?? values.ownerEmail}
            readOnly={Boolean(signedInEmail)}
            onChange={() => clearError('ownerEmail')}
          />
        ),
        { hint: signedInEmail ? 'You are signed in: the listing will be yours.' : 'We e-mail you a sign-in link to confirm it is yours.' },
      )}
      {field('cityId', 'City *', (props) => (
        <select {...props} required defaultValue={values.cityId ?? ''} onChange={() => clearError('cityId')}>
          <option value="">Choose a city</option>
          {cities.map((city) => (
            <option key={city.id} value={city.id}>
              {city.name}
            </option>
          ))}
        </select>
      ))}
      {field(
        'description',
        'Description',
        (props) => (
          <textarea {...props} rows={4} maxLength={5000} defaultValue={values.description} placeholder="Your treatments, team and what sets your spa apart." />
        ),
        { optional: true, wide: true },
      )}
      {field(
        'address',
        'Address',
        (props) => (
          <input {...props} type="text" maxLength={300} defaultValue={values.address} />
        ),
        { optional: true, wide: true },
      )}
      {field(
        'phone',
        'Spa phone',
        (props) => (
          <input {...props} type="tel" maxLength={40} autoComplete="tel" inputMode="tel" {...resent('phone')} />
        ),
        { optional: true },
      )}
      {field(
        'email',
        'Spa e-mail for clients',
        (props) => (
          <input
            {...props}
            {...EMAIL_INPUT}
            // The spa's address for its clients: autofill would offer the owner's own.
            autoComplete="off"
            maxLength={254}
            {...resent('email')}
          />
        ),
        { optional: true },
      )}
      {field(
        'website',
        'Website',
        (props) => (
          <input {...props} {...URL_INPUT} maxLength={500} placeholder="https://" {...resent('website')} />
        ),
        { optional: true, wide: true },
      )}
      {paymentsEnabled ? (
        <>
          <div className="field">
            <label htmlFor={id('tier')} className="label">
              Plan
            </label>
            <select id={id('tier')} name="tier" className="input" defaultValue={tier}>
              {(['FREE', 'PREMIUM', 'ELITE'] as const).map((value) => (
                <option key={value} value={value}>
                  {planLabels[value]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={id('billing')} className="label">
              Billing for Premium and Elite
            </label>
            <select id={id('billing')} name="billing" className="input" defaultValue={billing}>
              <option value="monthly">Monthly</option>
              <option value="annual">Annual (Save 20%)</option>
            </select>
          </div>
        </>
      ) : (
        <input type="hidden" name="tier" value="FREE" />
      )}
      <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-ink-muted">Fields marked * are required. New listings are reviewed before they appear.</p>
        <button type="submit" className="btn-primary btn-lg shrink-0 whitespace-nowrap" disabled={processing || done}>
          {processing || done ? 'Processing...' : 'Submit Listing'}
        </button>
      </div>
    </form>
  );
}
