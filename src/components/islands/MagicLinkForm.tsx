import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { loadOnce } from '#lib/client/load-once.ts';
import { postJson } from '#lib/client/post-json.ts';
import { toast } from '#lib/client/toasts.ts';
import { EMAIL_INPUT, schemaFormProps } from './field-errors.tsx';

export type MagicLinkPurpose = 'owner' | 'client';

interface Props {
  /** Owners land on their dashboard, clients on the member home (or `next`). */
  purpose: MagicLinkPurpose;
  /** Where to land after signing in: a path on this site (checked again by the server). */
  next?: string;
  /** A line above the field, shown only while asking for the address. */
  intro?: string;
  /** What the visitor sent when the server answered the form itself (no JavaScript): kept to correct. */
  initialEmail?: string;
  initialError?: string;
}

type State = { step: 'entry'; sending: boolean } | { step: 'sent'; email: string };

interface ErrorBody {
  error?: { message?: string; fields?: Record<string, string> };
}

/** Spec 7: every sign-in link, owners' included, is asked for here. */
export const MAGIC_LINK_ENDPOINT = '/api/auth/request';
/** The same request as a plain form post, for before hydration and without JavaScript. */
export const MAGIC_LINK_FORM_ACTION = '/auth/magic-link';

const FAILED = { title: 'Error', description: 'Failed to send magic link. Please try again.', variant: 'destructive' } as const;

async function errorBody(response: Response): Promise<ErrorBody> {
  try {
    return (await response.json()) as ErrorBody;
  } catch {
    return {};
  }
}

// zod loads when someone starts to fill the form in, not with the page.
const loadSchemas = loadOnce(() => import('#lib/auth-schemas.ts'));
type Schemas = Awaited<ReturnType<typeof loadSchemas>>;

// Passwordless sign-in (spec 4, Magic link form): entry -> sent -> back to
// entry with Send Another Link. The server renders a plain form that posts to
// /auth/magic-link, so it works before hydration and without JavaScript. The
// field is uncontrolled: once live, the island reads what is in it (including
// anything typed before hydration) and never writes over it.
export default function MagicLinkForm({ purpose, next, intro, initialEmail = '', initialError }: Props) {
  // Until hydration the button is enabled: the form then posts to the server,
  // which checks the address itself. Once live it follows the field (spec 5).
  const [live, setLive] = useState(false);
  const [hasEmail, setHasEmail] = useState(initialEmail.trim() !== '');
  const [error, setError] = useState<string | null>(initialError ?? null);
  const [defaultEmail, setDefaultEmail] = useState(initialEmail);
  const [state, setState] = useState<State>({ step: 'entry', sending: false });
  const inputRef = useRef<HTMLInputElement>(null);
  const sentHeadingRef = useRef<HTMLHeadingElement>(null);
  const resetting = useRef(false);
  const id = useId();
  const inputId = `${id}-email`;
  const errorId = `${id}-error`;

  // Adopt what is already in the field: typed before hydration, or autofilled.
  useEffect(() => {
    setHasEmail((inputRef.current?.value.trim() ?? '') !== '');
    setLive(true);
  }, []);

  // Focus follows the step, so keyboard and screen-reader users hear the change.
  useEffect(() => {
    if (state.step === 'sent') sentHeadingRef.current?.focus();
    else if (resetting.current) {
      resetting.current = false;
      inputRef.current?.focus();
    }
  }, [state.step]);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.step !== 'entry' || state.sending) return;
    const form = event.currentTarget;
    const email = inputRef.current?.value ?? '';
    let schema: Schemas['magicLinkRequestSchema'];
    try {
      schema = (await loadSchemas()).magicLinkRequestSchema;
    } catch {
      // The script could not be fetched: the server answers the plain form.
      form.submit();
      return;
    }
    const parsed = schema.safeParse({ email, ...(next ? { next } : {}) });
    if (!parsed.success) {
      setError(parsed.error.issues.find((issue) => issue.path[0] === 'email')?.message ?? 'Valid email is required');
      inputRef.current?.focus();
      return;
    }
    setError(null);
    setState({ step: 'entry', sending: true });
    try {
      const response = await postJson(MAGIC_LINK_ENDPOINT, { ...parsed.data, ...(purpose === 'owner' ? { for: 'owner' } : {}) });
      if (response.ok) {
        setState({ step: 'sent', email: parsed.data.email });
        toast({ title: 'Magic Link Sent!', description: 'Check your email for a sign-in link. It expires in 15 minutes.' });
        return;
      }
      const body = await errorBody(response);
      setState({ step: 'entry', sending: false });
      if (response.status === 429) {
        toast({ title: 'Too many requests', description: body.error?.message ?? 'Too many sign-in links requested. Try again later.', variant: 'destructive' });
      } else if (response.status === 422) {
        setError(body.error?.fields?.email ?? body.error?.message ?? 'Valid email is required');
        inputRef.current?.focus();
      } else {
        toast(FAILED);
      }
    } catch {
      setState({ step: 'entry', sending: false });
      toast(FAILED);
    }
  }

  function sendAnother() {
    resetting.current = true;
    setDefaultEmail('');
    setHasEmail(false);
    setError(null);
    setState({ step: 'entry', sending: false });
  }

  if (state.step === 'sent') {
    return (
      <div className="text-center" data-magic-link-sent>
        <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
            <rect x="3" y="5" width="18" height="14" rx="2.5" />
            <path d="M3.5 7l8.5 6 8.5-6" />
          </svg>
        </span>
        <h2 ref={sentHeadingRef} tabIndex={-1} className="mt-5 font-serif text-2xl text-ink">
          Check Your Email
        </h2>
        <p className="mt-3 text-ink-muted">
          We sent a sign-in link to
          <strong className="block font-semibold wrap-anywhere text-ink">{state.email}</strong>
        </p>
        <p className="mt-1 text-ink-muted">The link expires in 15 minutes.</p>
        <button type="button" className="btn-secondary mt-7 w-full" onClick={sendAnother}>
          Send Another Link
        </button>
      </div>
    );
  }

  const sending = state.sending;
  return (
    <form {...schemaFormProps(MAGIC_LINK_FORM_ACTION, onSubmit, loadSchemas, sending)} className="flex flex-col gap-5" data-magic-link-form>
      <input type="hidden" name="for" value={purpose} />
      {next && <input type="hidden" name="next" value={next} />}
      {intro && <p className="text-ink-muted">{intro}</p>}
      <div className="field">
        <label htmlFor={inputId} className="label">
          Email address
        </label>
        <input
          ref={inputRef}
          id={inputId}
          name="email"
          {...EMAIL_INPUT}
          required
          placeholder="you@example.com"
          className="input"
          defaultValue={defaultEmail}
          onChange={(event) => {
            setHasEmail(event.target.value.trim() !== '');
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {error && (
          <p id={errorId} className="field-error">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="btn-primary btn-lg w-full" disabled={(live && !hasEmail) || sending}>
        {sending ? 'Sending...' : 'Send Magic Link'}
      </button>
    </form>
  );
}
