// The one shape of a JSON answer and of a JSON error, for every endpoint:
//   success: the data itself
//   error:   { "error": { "code": "not_found", "message": "...", "fields": { "city": "..." } } }

export interface ApiError {
  error: { code: string; message: string; fields?: Record<string, string> };
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

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

export const invalid = (error: ParseError, status = 400) =>
  apiError(status, 'invalid_request', 'Some fields are not valid.', fieldErrors(error));

/**
 * The site's public origin (SITE_URL at build time), for links in mail and
 * calendar UIDs. Never the request's own URL: its host comes from the Host
 * header, which a client chooses.
 */
export const publicOrigin = new URL(import.meta.env.SITE ?? 'http://localhost').origin;

export const notFound = (what: string) => apiError(404, 'not_found', `${what} not found.`);

/**
 * The one cross-origin guard (src/middleware.ts runs it for every request). A
 * state-changing request must come from our own origin (browsers always send
 * Origin on cross-origin POSTs and on same-origin fetch POSTs).
 */
export function isSameOrigin(request: Request, url: URL): boolean {
  const origin = request.headers.get('origin');
  if (origin) return origin === url.origin;
  const fetchSite = request.headers.get('sec-fetch-site');
  return fetchSite === null || fetchSite === 'same-origin' || fetchSite === 'none';
}

export const crossOrigin = () => apiError(403, 'cross_origin', 'Cross-origin requests are not allowed.');

/** Reads a JSON body of at most `limit` bytes; null when it is not JSON. */
export async function readJson(request: Request, limit = 16_384): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    return { ok: false, response: apiError(415, 'unsupported_media_type', 'Send the body as application/json.') };
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return { ok: false, response: apiError(413, 'payload_too_large', `The body may be at most ${limit} bytes.`) };
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > limit) {
    return { ok: false, response: apiError(413, 'payload_too_large', `The body may be at most ${limit} bytes.`) };
  }
  let text: string;
  try {
    // Strict: bytes that are not UTF-8 are refused, not stored as U+FFFD.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, response: apiError(400, 'invalid_encoding', 'The body is not valid UTF-8.') };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: apiError(400, 'invalid_json', 'The body is not valid JSON.') };
  }
}
