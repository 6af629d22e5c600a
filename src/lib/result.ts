// The one vocabulary of domain answers. A domain function returns a Result:
// ok with its value, or a refusal with a reason from the closed list below, a
// message a person can act on, and what the reason needs (the fields for
// `invalid`, the wait for `rate_limited`). Domain code never speaks HTTP: the
// edge maps a reason to a status, a JSON error (src/lib/server/http.ts) or a
// form page's refusal (src/lib/server/forms.ts), in one place each.
//
//   const taken = conflict('That time was just taken.', { details: { alternatives } });
//   if (!result.ok) return refusalResponse(result);   // an endpoint
//   if (!result.ok) return formRefusal(result, values); // a form page

/** What a refusal is about: a category, never the detail (the message says that). */
export const REASONS = [
  /** The input breaks a rule; `fields` says which and why (the form as a whole under `_`). */
  'invalid',
  /** The request itself makes no sense here: an unknown action, a body that is not what was asked for. */
  'malformed',
  /** Nobody is signed in. */
  'unauthorized',
  /** Signed in, but this is not theirs to do. */
  'forbidden',
  /** It does not exist, or is not the asker's to know about. */
  'not_found',
  /** The state does not allow it now: taken, already done, changed meanwhile. `details` may say what is possible instead. */
  'conflict',
  /** It existed and has ended: an expired or spent link. */
  'gone',
  /** Larger than allowed. */
  'too_large',
  /** A kind of content we do not take. */
  'unsupported',
  /** Too many, too fast; try again after `retryAfterSeconds`. */
  'rate_limited',
  /** Not available on this site now: not configured, not set up. */
  'unavailable',
  /** A service we depend on (Stripe, the mail server) failed or did not answer. */
  'upstream_failed',
] as const;

export type Reason = (typeof REASONS)[number];

/** Messages by field name; `_` is the form as a whole. */
export type FieldMessages = Record<string, string>;

/** Extra data a refusal may carry for its caller (e.g. fresh alternatives for a conflict). */
export type Details = Readonly<Record<string, unknown>>;

interface RefusalBase<R extends Reason, D> {
  ok: false;
  reason: R;
  message: string;
  /** A finer name for clients that tell refusals apart (JSON `error.code`); the reason's own when absent. */
  code?: string;
  fields?: FieldMessages;
  details?: D;
}

/** A refusal for reason R; `invalid` always names its fields, `rate_limited` always says how long to wait. */
export type Refusal<R extends Reason = Reason, D = Details> = R extends 'invalid'
  ? RefusalBase<R, D> & { fields: FieldMessages }
  : R extends 'rate_limited'
    ? RefusalBase<R, D> & { retryAfterSeconds: number }
    : RefusalBase<R, D>;

export interface Ok<T> {
  ok: true;
  value: T;
}

/** A value, or a refusal for one of the reasons R. */
export type Result<T, R extends Reason = Reason, D = Details> = Ok<T> | Refusal<R, D>;

/** What every constructor takes besides its message. */
export interface RefusalExtra<D = Details> {
  code?: string;
  fields?: FieldMessages;
  details?: D;
}

export function ok(): Ok<void>;
export function ok<T>(value: T): Ok<T>;
export function ok<T>(value?: T): Ok<T | undefined> {
  return { ok: true, value };
}

function refusal<R extends Reason, D>(reason: R, message: string, extra: RefusalExtra<D> = {}): RefusalBase<R, D> {
  const made: RefusalBase<R, D> = { ok: false, reason, message };
  if (extra.code) made.code = extra.code;
  if (extra.fields) made.fields = extra.fields;
  if (extra.details !== undefined) made.details = extra.details;
  return made;
}

export const INVALID_MESSAGE = 'Some fields are not valid.';

/** The input breaks a rule: the message for each field (may be empty when the message says it all). */
export const invalid = <D = Details>(fields: FieldMessages, message = INVALID_MESSAGE, extra: Omit<RefusalExtra<D>, 'fields'> = {}): Refusal<'invalid', D> => ({
  ...refusal('invalid', message, extra),
  fields,
});

export const malformed = <D = Details>(message: string, extra?: RefusalExtra<D>): Refusal<'malformed', D> => refusal('malformed', message, extra);

export const SIGN_IN_MESSAGE = 'Sign in to continue.';

export const unauthorized = <D = Details>(message = SIGN_IN_MESSAGE, extra?: RefusalExtra<D>): Refusal<'unauthorized', D> =>
  refusal('unauthorized', message, extra);

export const forbidden = <D = Details>(message: string, extra?: RefusalExtra<D>): Refusal<'forbidden', D> => refusal('forbidden', message, extra);

export const notFound = <D = Details>(message: string, extra?: RefusalExtra<D>): Refusal<'not_found', D> => refusal('not_found', message, extra);

export const conflict = <D = Details>(message: string, extra?: RefusalExtra<D>): Refusal<'conflict', D> => refusal('conflict', message, extra);

export const gone = <D = Details>(message: string, extra?: RefusalExtra<D>): Refusal<'gone', D> => refusal('gone', message, extra);

export const tooLarge = <D = Details>(message: string, extra?: RefusalExtra<D>): Refusal<'too_large', D> => refusal('too_large', message, extra);

export const unsupported = <D = Details>(message: string, extra?: RefusalExtra<D>): Refusal<'unsupported', D> => refusal('unsupported', message, extra);

export const rateLimited = <D = Details>(retryAfterSeconds: number, message: string, extra?: RefusalExtra<D>): Refusal<'rate_limited', D> => ({
  ...refusal('rate_limited', message, extra),
  retryAfterSeconds,
});

export const unavailable = <D = Details>(message: string, extra?: RefusalExtra<D>): Refusal<'unavailable', D> => refusal('unavailable', message, extra);

export const upstreamFailed = <D = Details>(message: string, extra?: RefusalExtra<D>): Refusal<'upstream_failed', D> =>
  refusal('upstream_failed', message, extra);

// --- parsing ------------------------------------------------------------------

/** What a failed parse reports (zod and zod/mini alike). */
export interface ParseError {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/** What a schema's safeParse gives (zod and zod/mini alike). */
export type SafeParse<T> = { success: true; data: T } | { success: false; error: ParseError };

export interface Schema<T> {
  safeParse(input: unknown): SafeParse<T>;
}

/** The first message for each field of a failed parse (`_` for the input as a whole). */
export function fieldErrors(error: ParseError): FieldMessages {
  const fields: FieldMessages = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The input as the schema reads it, or `invalid` with the first message for each field. */
export function parseWith<T>(schema: Schema<T>, input: unknown): Result<T, 'invalid'> {
  const parsed = schema.safeParse(input);
  return parsed.success ? ok(parsed.data) : invalid(fieldErrors(parsed.error));
}

/** What a result came to, in one word: 'ok', or the refusal's reason (for logs and tests). */
export const outcomeOf = (result: Result<unknown>): 'ok' | Reason => (result.ok ? 'ok' : result.reason);
