/**
 * POSTs a JSON body to one of this site's endpoints with the session cookie.
 * The answer is left to the caller: each form reads its own fields and errors
 * (the endpoints' one error shape: src/lib/server/http.ts).
 */
export function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}
