import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict, invalid, notFound, ok, rateLimited, REASONS, type Reason, type Refusal } from '#lib/result.ts';
import { errorBody, readBody, readJson, readPatch, refusalResponse, resultResponse, statusOf } from './http.ts';

/** Each reason's answer: the status, and the JSON code when the refusal names none of its own. */
const EXPECTED: Record<Reason, [number, string]> = {
  invalid: [422, 'invalid_request'],
  malformed: [400, 'bad_request'],
  unauthorized: [401, 'unauthorized'],
  forbidden: [403, 'forbidden'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
  gone: [410, 'gone'],
  too_large: [413, 'payload_too_large'],
  unsupported: [415, 'unsupported_media_type'],
  rate_limited: [429, 'rate_limited'],
  upstream_failed: [502, 'upstream_failed'],
  unavailable: [503, 'unavailable'],
};

/** A refusal for the reason, as its constructor in result.ts makes it (result.test.ts checks those). */
const sample = (reason: Reason): Refusal =>
  ({ ok: false, reason, message: `A ${reason} refusal.`, ...(reason === 'rate_limited' ? { retryAfterSeconds: 90 } : {}) }) as Refusal;

describe('a refusal at the edge', () => {
  it.each(REASONS.map((reason) => [reason, ...EXPECTED[reason]] as const))('%s answers %i with the code %s', async (reason, status, code) => {
    const refusal = sample(reason);
    expect(statusOf(refusal)).toBe(status);
    expect(statusOf(reason)).toBe(status);
    const response = refusalResponse(refusal);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code, message: refusal.message });
  });

  it('says how long to wait when rate limited, and only then', () => {
    expect(refusalResponse(rateLimited(90, 'Too many.')).headers.get('retry-after')).toBe('90');
    expect(refusalResponse(conflict('Taken.')).headers.get('retry-after')).toBeNull();
  });

  it('keeps the refusal’s own code, its fields when there are any, and its details', () => {
    expect(errorBody(conflict('This booking is already paid.', { code: 'already_paid' }))).toEqual({
      error: { code: 'already_paid', message: 'This booking is already paid.' },
    });
    expect(errorBody(invalid({ scheduledAt: 'Pick a time' }, 'Pick a time'))).toEqual({
      error: { code: 'invalid_request', message: 'Pick a time', fields: { scheduledAt: 'Pick a time' } },
    });
    // A refusal whose message says it all names no fields at all.
    expect(errorBody(invalid({}, 'This spa has no booking link.'))).toEqual({ error: { code: 'invalid_request', message: 'This spa has no booking link.' } });
    const alternatives = ['2026-12-01T17:00:00.000Z'];
    expect(errorBody(conflict('That time was just taken.', { details: { alternatives } }))).toEqual({
      error: { code: 'conflict', message: 'That time was just taken.', details: { alternatives } },
    });
  });

  it('answers an ok result with its value', async () => {
    const created = resultResponse(ok({ id: 7 }), 201, { Location: '/api/things/7' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/things/7');
    expect(await created.json()).toEqual({ id: 7 });
    expect(resultResponse(notFound('Lead not found.')).status).toBe(404);
  });
});

const jsonPost = (body: string, type = 'application/json') => new Request('http://localhost/api', { method: 'POST', headers: { 'content-type': type }, body });

describe('reading a JSON body', () => {
  const schema = z.object({ status: z.enum(['new', 'lost'], { message: 'Choose a status' }) });

  it('refuses what is not JSON, too large, not UTF-8 or not valid JSON, each with its own code', async () => {
    const codes = async (request: Request, limit = 64) => {
      const read = await readJson(request, limit);
      return read.ok ? 'ok' : [read.reason, errorBody(read).error.code];
    };
    expect(await codes(jsonPost('{}', 'text/plain'))).toEqual(['unsupported', 'unsupported_media_type']);
    expect(await codes(jsonPost(JSON.stringify({ pad: 'x'.repeat(100) })))).toEqual(['too_large', 'payload_too_large']);
    expect(
      await codes(
        new Request('http://localhost/api', { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array([0x22, 0xff, 0x22]) }),
      ),
    ).toEqual(['malformed', 'invalid_encoding']);
    expect(await codes(jsonPost('{nope'))).toEqual(['malformed', 'invalid_json']);
    expect(await codes(jsonPost('{"status":"new"}'))).toBe('ok');
  });

  it('reads a body as its schema says, or names the fields it refuses', async () => {
    expect(await readBody(jsonPost('{"status":"new"}'), schema, 64)).toEqual({ ok: true, value: { status: 'new' } });
    expect(await readBody(jsonPost('{"status":"gone"}'), schema, 64)).toEqual(invalid({ status: 'Choose a status' }));
  });

  it('reads a patch of one numbered thing: a bad id is not found, like a missing one', async () => {
    const patch = (id: string, body: string) => readPatch({ params: { id }, request: jsonPost(body) }, 'Lead', schema, 64);
    expect(await patch('12', '{"status":"lost"}')).toEqual({ ok: true, value: { id: 12, change: { status: 'lost' } } });
    expect(await patch('12x', '{"status":"lost"}')).toEqual(notFound('Lead not found.'));
    expect(await patch('12', '{"status":"maybe"}')).toMatchObject({ ok: false, reason: 'invalid', fields: { status: 'Choose a status' } });
  });
});
