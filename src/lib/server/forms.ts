// The one way an HTML form page reads a post and answers, as http.ts is for
// the JSON endpoints. Every form works without JavaScript, so a post ends one
// of two ways:
//   - done: 303 to a GET of the page (post/redirect/get), naming the notice
//     to show in `?done=`, so a reload does not post again;
//   - refused: the page renders again with the reasons beside the fields and
//     what was typed (422, or the status the rule gives: 403, 404, 409, 429),
//     having changed nothing. A domain refusal (#lib/result.ts) becomes one
//     through formRefusal, with the status http.ts gives its reason.
import { parseWith, type Refusal, type Schema } from '#lib/result.ts';
import { readForm, refusalHeaders, statusOf } from './http.ts';

export type FormErrors = Record<string, string>;

/**
 * An answer rendered in place: a refused post, with the page's status, the
 * reasons by field (`_` for the form as a whole) and the typed values; or,
 * for the few pages whose success is a page of its own (a booking request's
 * 201, the newsletter's "check your inbox"), an acceptance: no errors.
 */
export interface FormRefusal<V = Record<string, string>> {
  status: number;
  errors: FormErrors;
  /** What was typed, to fill the form again; absent when the post could not be read. */
  values?: V;
  headers?: Record<string, string>;
}

export const FORM_UNREADABLE = 'The form could not be read. Please try again.';

export function refuse<V>(status: number, errors: FormErrors, values?: V, headers?: Record<string, string>): FormRefusal<V> {
  return { status, errors, ...(values === undefined ? {} : { values }), ...(headers ? { headers } : {}) };
}

/**
 * A domain refusal as the page's answer: the reason's status (and Retry-After),
 * the errors the page shows (by default the refusal's fields, else its message
 * for the form as a whole) and what was typed.
 */
export function formRefusal<V>(refusal: Refusal, values?: V, errors?: FormErrors): FormRefusal<V> {
  const fields = refusal.fields && Object.keys(refusal.fields).length > 0 ? refusal.fields : { _: refusal.message };
  const headers = refusalHeaders(refusal);
  return refuse(statusOf(refusal), errors ?? fields, values, Object.keys(headers).length > 0 ? headers : undefined);
}

export function accepted<V>(status = 200, values?: V): FormRefusal<V> {
  return refuse(status, {}, values);
}

/**
 * 303 to `path` (a same-site path), with the notice's key as `?done=` and an
 * optional fragment. The query the path already has is kept.
 */
export function seeOther(path: string, notice?: string, hash?: string): Response {
  const url = new URL(path, 'http://x');
  if (notice) url.searchParams.set('done', notice);
  return new Response(null, { status: 303, headers: { Location: `${url.pathname}${url.search}${hash ? `#${hash}` : ''}` } });
}

/** Not yours, not there, or not an id: the same empty 404, so nothing is learnt. */
export const notFoundPage = () => new Response(null, { status: 404 });

/** The notice a redirect named, shown only on the GET it led to. */
export function noticeOf<N extends Record<string, string>>(request: Request, url: URL, notices: N): N[keyof N] | null {
  if (request.method !== 'GET') return null;
  const done = url.searchParams.get('done');
  return done !== null && Object.hasOwn(notices, done) ? (notices[done] as N[keyof N]) : null;
}

/**
 * The named text fields of a form, '' for an absent one. Nothing is cut: the
 * schema refuses what is too long (a cut value could pass), and the body is
 * capped (MAX_BODY_BYTES) before it is read.
 */
export function pick<K extends string>(form: URLSearchParams, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, form.get(key) ?? ''])) as Record<K, string>;
}

/**
 * Parses the picked values with the payload's schema (`input` when the schema
 * wants other types than the form's strings): the data, or a 422 refusal with
 * the first message per field and the values as typed.
 */
export function parseForm<T, V>(schema: Schema<T>, values: V, input: unknown = values): { ok: true; data: T } | ({ ok: false } & FormRefusal<V>) {
  const parsed = parseWith(schema, input);
  return parsed.ok ? { ok: true, data: parsed.value } : { ok: false, ...formRefusal(parsed, values) };
}

interface PageContext {
  request: Request;
  response: { status?: number; headers: Headers };
}

/** Reads a post's body: the form, or the refusal that answers a body that is not one. */
export type FormReader<F> = (request: Request) => Promise<{ form: F } | FormRefusal<never>>;

/** The text fields of a capped url-encoded or multipart post (http.ts's readForm); anything else is refused (400). */
export const readTextForm: FormReader<URLSearchParams> = async (request) => {
  const form = await readForm(request);
  return form ? { form } : refuse<never>(400, { _: FORM_UNREADABLE });
};

/**
 * Runs a page's form handler on a POST. Answers null for any other method;
 * the redirect to return; or the refusal to render, whose status (and
 * headers) are already set on the page's response. A body the reader refuses
 * (not a form, not UTF-8, too large) is answered before the handler runs.
 */
export async function handleForm<V = Record<string, string>, F = URLSearchParams>(
  context: PageContext,
  handle: (form: F) => Response | FormRefusal<V> | Promise<Response | FormRefusal<V>>,
  read: FormReader<F> = readTextForm as unknown as FormReader<F>,
): Promise<Response | FormRefusal<V> | null> {
  if (context.request.method !== 'POST') return null;
  const body = await read(context.request);
  const answer = 'form' in body ? await handle(body.form) : body;
  if (answer instanceof Response) return answer;
  context.response.status = answer.status;
  for (const [name, value] of Object.entries(answer.headers ?? {})) context.response.headers.set(name, value);
  return answer;
}
