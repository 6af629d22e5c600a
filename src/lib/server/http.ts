// The one shape of a JSON answer and of a JSON error, for every endpoint:
//   success: the data itself
//   error:   { "error": { "code": "not_found", "message": "...", "fields": { "city": "..." } } }
// and the one mapping from a domain refusal (#lib/result.ts) to that error:
// its reason decides the status, its code (else the reason's) the `code`.

import { TRUST_PROXY } from 'astro:env/server';
import { parseId } from '#lib/ids.ts';
import { forbidden, malformed, notFound, ok, parseWith, tooLarge, unsupported, type Reason, type Refusal, type Result, type Schema } from '#lib/result.ts';
import { DEFAULT_BODY_LIMIT } from '../front-routes.ts';
import { parseTrustProxy } from '../proxy.ts';

export interface ApiError {
  error: { code: string; message: string; fields?: Record<string, string>; details?: unknown };
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-store' };

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function apiError(status: number, code: string, message: string, fields?: Record<string, string>, headers: Record<string, string> = {}): Response {
  const body: ApiError = { error: { code, message, ...(fields ? { fields } : {}) } };
  return json(body, status, headers);
}

/** Each reason's HTTP status, and the JSON `code` of a refusal that names none of its own. */
export const HTTP_OF_REASON: Readonly<Record<Reason, { status: number; code: string }>> = {
  invalid: { status: 422, code: 'invalid_request' },
  malformed: { status: 400, code: 'bad_request' },
  unauthorized: { status: 401, code: 'unauthorized' },
  forbidden: { status: 403, code: 'forbidden' },
  not_found: { status: 404, code: 'not_found' },
  conflict: { status: 409, code: 'conflict' },
  gone: { status: 410, code: 'gone' },
  too_large: { status: 413, code: 'payload_too_large' },
  unsupported: { status: 415, code: 'unsupported_media_type' },
  rate_limited: { status: 429, code: 'rate_limited' },
  upstream_failed: { status: 502, code: 'upstream_failed' },
  unavailable: { status: 503, code: 'unavailable' },
};

/** The HTTP status of a refusal (or of its reason). */
export const statusOf = (refusal: Reason | Pick<Refusal, 'reason'>): number => HTTP_OF_REASON[typeof refusal === 'string' ? refusal : refusal.reason].status;

/** The headers a refusal's answer carries: how long to wait, for `rate_limited`. */
export function refusalHeaders(refusal: Refusal): Record<string, string> {
  return refusal.reason === 'rate_limited' ? { 'Retry-After': String(refusal.retryAfterSeconds) } : {};
}

/** The JSON error of a refusal; fields when it names any, details (public) when it has them. */
export function errorBody(refusal: Refusal): ApiError {
  const fields = refusal.fields && Object.keys(refusal.fields).length > 0 ? refusal.fields : undefined;
  return {
    error: {
      code: refusal.code ?? HTTP_OF_REASON[refusal.reason].code,
      message: refusal.message,
      ...(fields ? { fields } : {}),
      ...(refusal.details === undefined ? {} : { details: refusal.details }),
    },
  };
}

/** The answer to a refused request: its status, the JSON error, Retry-After when it says to wait. */
export function refusalResponse(refusal: Refusal, headers: Record<string, string> = {}): Response {
  return json(errorBody(refusal), statusOf(refusal), { ...refusalHeaders(refusal), ...headers });
}

/** An endpoint's answer to a result: the value as JSON (with `status`), or the refusal's error. */
export function resultResponse(result: Result<unknown>, status = 200, headers: Record<string, string> = {}): Response {
  return result.ok ? json(result.value, status, headers) : refusalResponse(result);
}

/**
 * The site's public URL: the running server's SITE_URL (server/serve.ts has
 * checked it), else the one the build was made with. Links in mail, calendar
 * UIDs, OAuth redirect URIs and the origin check use it; never the request's
 * own URL, whose host comes from the Host header, which a client chooses.
 */
export const publicUrl = process.env.SITE_URL || import.meta.env.SITE || 'http://localhost';
export const publicOrigin = new URL(publicUrl).origin;

/**
 * The one cross-origin guard (src/middleware.ts runs it for every request). A
 * state-changing request must come from our own origin (browsers always send
 * Origin on cross-origin POSTs and on same-origin fetch POSTs). Our origin is
 * SITE_URL's; behind a trusted proxy (TLS ends there, so the request's own URL
 * says http://) it is only SITE_URL's.
 */
export function isSameOrigin(request: Request, url: URL, trustedProxies = parseTrustProxy(TRUST_PROXY)): boolean {
  const origin = request.headers.get('origin');
  const fetchSite = request.headers.get('sec-fetch-site');
  // A page sent with Referrer-Policy: no-referrer (one whose address holds a
  // token) makes the browser say "Origin: null" for its own forms; the
  // browser's Sec-Fetch-Site, which no page can set, says where it came from.
  if (origin === 'null') return fetchSite === 'same-origin';
  if (origin) return origin === publicOrigin || (trustedProxies === 0 && origin === url.origin);
  return fetchSite === null || fetchSite === 'same-origin' || fetchSite === 'none';
}

export const crossOrigin = () => refusalResponse(forbidden('Cross-origin requests are not allowed.', { code: 'cross_origin' }));

/** Forms and JSON bodies may be this large: the one cap (src/lib/front-routes.ts), which the fronts apply before any page runs. */
export const MAX_BODY_BYTES = DEFAULT_BODY_LIMIT;

export const bodyTooLarge = (limit: number) => tooLarge(`The body may be at most ${limit} bytes.`);

/**
 * The body's bytes, reading no more than `limit` of them whether the length was
 * declared or the body is chunked: null when there are more (the stream is
 * cancelled, so the rest is never buffered).
 */
export async function readBodyBytes(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array<ArrayBuffer> | null> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) return null;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

// Strict: bytes that are not UTF-8 are refused, not stored as U+FFFD.
function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A multipart body's parts (files kept), or null when the bytes are not the multipart `type` says. */
export async function parseMultipart(bytes: Uint8Array<ArrayBuffer>, type: string): Promise<FormData | null> {
  return new Response(bytes, { headers: { 'content-type': type } }).formData().catch(() => null);
}

/** A body of at most `limit` bytes as text: too_large beyond it, malformed when it is not UTF-8. */
export async function readText(request: Request, limit = MAX_BODY_BYTES): Promise<Result<string, 'too_large' | 'malformed'>> {
  const bytes = await readBodyBytes(request, limit).catch(() => null);
  if (!bytes) return bodyTooLarge(limit);
  const text = decodeUtf8(bytes);
  return text === null ? malformed('The body is not valid UTF-8.', { code: 'invalid_encoding' }) : ok(text);
}

/**
 * Reads an HTML form post (url-encoded or multipart, text fields only) of at
 * most `limit` bytes. Null when the body is too large, not a form or not
 * UTF-8: every form page then answers as it does for an empty form.
 */
export async function readForm(request: Request, limit = MAX_BODY_BYTES): Promise<URLSearchParams | null> {
  const type = request.headers.get('content-type') ?? '';
  const bytes = await readBodyBytes(request, limit).catch(() => null);
  if (!bytes) return null;
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    const text = decodeUtf8(bytes);
    return text === null ? null : new URLSearchParams(text);
  }
  if (/^multipart\/form-data\b/i.test(type)) {
    const form = await parseMultipart(bytes, type);
    if (!form) return null;
    const fields = new URLSearchParams();
    for (const [key, value] of form) if (typeof value === 'string') fields.append(key, value);
    return fields;
  }
  return null;
}

/** Reads a JSON body of at most `limit` bytes, declared or chunked. */
export async function readJson(request: Request, limit = 16_384): Promise<Result<unknown, 'unsupported' | 'too_large' | 'malformed'>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) return unsupported('Send the body as application/json.');
  const text = await readText(request, limit);
  if (!text.ok) return text;
  try {
    return ok(JSON.parse(text.value) as unknown);
  } catch {
    return malformed('The body is not valid JSON.', { code: 'invalid_json' });
  }
}

/** A JSON body of at most `limit` bytes, as the payload's schema reads it: readJson's refusals, or `invalid` naming the fields. */
export async function readBody<T>(request: Request, schema: Schema<T>, limit: number): Promise<Result<T>> {
  const body = await readJson(request, limit);
  return body.ok ? parseWith(schema, body.value) : body;
}

/**
 * A PATCH of one numbered thing (/api/bookings/{id}, /api/leads/{id}): the id
 * in the path and the change its JSON body of at most `limit` bytes asks for;
 * or the refusal: not_found for a malformed id (as for one that names
 * nothing), readBody's refusals.
 */
export async function readPatch<T>(
  context: { params: Record<string, string | undefined>; request: Request },
  what: string,
  schema: Schema<T>,
  limit: number,
): Promise<Result<{ id: number; change: T }>> {
  const id = parseId(context.params.id);
  if (id === null) return notFound(`${what} not found.`);
  const change = await readBody(context.request, schema, limit);
  return change.ok ? ok({ id, change: change.value }) : change;
}
