// The one shape of a JSON answer and of a JSON error, for every endpoint:
//   success: the data itself
//   error:   { "error": { "code": "not_found", "message": "...", "fields": { "city": "..." } } }

import { TRUST_PROXY } from 'astro:env/server';
import { parseId } from '#lib/ids.ts';
import { parseTrustProxy } from '../proxy.ts';

export interface ApiError {
  error: { code: string; message: string; fields?: Record<string, string> };
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-store' };

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function apiError(status: number, code: string, message: string, fields?: Record<string, string>, headers: Record<string, string> = {}): Response {
  const body: ApiError = { error: { code, message, ...(fields ? { fields } : {}) } };
  return json(body, status, headers);
}

/** What a failed parse reports (zod and zod/mini alike). */
interface ParseError {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/** The first message for each field of a failed zod parse. */
export function fieldErrors(error: ParseError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

export const invalid = (error: ParseError, status = 400) => apiError(status, 'invalid_request', 'Some fields are not valid.', fieldErrors(error));

/**
 * The site's public URL: the running server's SITE_URL (server/serve.ts has
 * checked it), else the one the build was made with. Links in mail, calendar
 * UIDs, OAuth redirect URIs and the origin check use it; never the request's
 * own URL, whose host comes from the Host header, which a client chooses.
 */
export const publicUrl = process.env.SITE_URL || import.meta.env.SITE || 'http://localhost';
export const publicOrigin = new URL(publicUrl).origin;

export const notFound = (what: string) => apiError(404, 'not_found', `${what} not found.`);

/**
 * The one cross-origin guard (src/middleware.ts runs it for every request). A
 * state-changing request must come from our own origin (browsers always send
 * Origin on cross-origin POSTs and on same-origin fetch POSTs). Our origin is
 * SITE_URL's; behind a trusted proxy (TLS ends there, so the request's own URL
 * says http://) it is only SITE_URL's.
 */
export function isSameOrigin(request: Request, url: URL, trustedProxies = parseTrustProxy(TRUST_PROXY)): boolean {
  const origin = request.headers.get('origin');
  if (origin) return origin === publicOrigin || (trustedProxies === 0 && origin === url.origin);
  const fetchSite = request.headers.get('sec-fetch-site');
  return fetchSite === null || fetchSite === 'same-origin' || fetchSite === 'none';
}

export const crossOrigin = () => apiError(403, 'cross_origin', 'Cross-origin requests are not allowed.');

/** Forms and JSON bodies may be this large; server/serve.ts refuses larger ones before any page runs. */
export const MAX_BODY_BYTES = 64 * 1024;

export const payloadTooLarge = (limit: number) => apiError(413, 'payload_too_large', `The body may be at most ${limit} bytes.`);

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
    const form = await new Response(bytes, { headers: { 'content-type': type } }).formData().catch(() => null);
    if (!form) return null;
    const fields = new URLSearchParams();
    for (const [key, value] of form) if (typeof value === 'string') fields.append(key, value);
    return fields;
  }
  return null;
}

/** Reads a JSON body of at most `limit` bytes, declared or chunked. */
export async function readJson(request: Request, limit = 16_384): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    return { ok: false, response: apiError(415, 'unsupported_media_type', 'Send the body as application/json.') };
  }
  const bytes = await readBodyBytes(request, limit).catch(() => null);
  if (!bytes) return { ok: false, response: payloadTooLarge(limit) };
  const text = decodeUtf8(bytes);
  if (text === null) return { ok: false, response: apiError(400, 'invalid_encoding', 'The body is not valid UTF-8.') };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: apiError(400, 'invalid_json', 'The body is not valid JSON.') };
  }
}

/** What a zod schema's safeParse gives (zod and zod/mini alike). */
type SafeParse<T> = { success: true; data: T } | { success: false; error: ParseError };

/**
 * A PATCH of one numbered thing (/api/bookings/{id}, /api/leads/{id}): the id
 * in the path and the change its JSON body of at most `limit` bytes asks for;
 * or the answer to send: 404 for a malformed id (as for one that names
 * nothing), readJson's refusals, 422 naming the fields the schema refuses.
 */
export async function readPatch<T>(
  context: { params: Record<string, string | undefined>; request: Request },
  what: string,
  schema: { safeParse(input: unknown): SafeParse<T> },
  limit: number,
): Promise<{ ok: true; id: number; change: T } | { ok: false; response: Response }> {
  const id = parseId(context.params.id);
  if (id === null) return { ok: false, response: notFound(what) };
  const body = await readJson(context.request, limit);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) return { ok: false, response: invalid(parsed.error, 422) };
  return { ok: true, id, change: parsed.data };
}
