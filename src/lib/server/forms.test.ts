import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict, invalid, notFound, rateLimited, REASONS, type Refusal } from '#lib/result.ts';
import { formRefusal, handleForm, noticeOf, parseForm, pick, refuse, seeOther, FORM_UNREADABLE } from './forms.ts';
import { statusOf } from './http.ts';

const post = (body: string, type = 'application/x-www-form-urlencoded') =>
  new Request('http://localhost/page', { method: 'POST', headers: { 'content-type': type }, body });
const page = (request: Request) => ({ request, response: { status: 200, headers: new Headers() } });

const schema = z.object({ name: z.string().trim().min(1, 'Name is required'), hours: z.coerce.number().int('Whole hours') });

describe('form pages', () => {
  it('redirects a valid post (303) with the notice and fragment, keeping the query', async () => {
    const context = page(post('name=Ana&hours=24'));
    const answer = await handleForm(context, (form) => {
      const parsed = parseForm(schema, pick(form, ['name', 'hours']));
      if (!parsed.ok) return parsed;
      expect(parsed.data).toEqual({ name: 'Ana', hours: 24 });
      return seeOther('/admin?q=spa', 'saved', 'spa-3');
    });
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(303);
    expect((answer as Response).headers.get('location')).toBe('/admin?q=spa&done=saved#spa-3');
  });

  it('refuses an invalid post in place: 422, the first message per field, the values as typed', async () => {
    const context = page(post('name=++&hours=1.5&extra=x'));
    const answer = await handleForm(context, (form) => {
      const parsed = parseForm(schema, pick(form, ['name', 'hours']));
      return parsed.ok ? seeOther('/') : parsed;
    });
    expect(context.response.status).toBe(422);
    expect(answer).toMatchObject({ status: 422, errors: { name: 'Name is required', hours: 'Whole hours' }, values: { name: '  ', hours: '1.5' } });
  });

  it('sets the refusal’s status and headers on the page (a rate limit)', async () => {
    const context = page(post('name=Ana'));
    const answer = await handleForm(context, () => refuse(429, { _: 'Too many' }, undefined, { 'Retry-After': '60' }));
    expect(answer).toMatchObject({ status: 429, errors: { _: 'Too many' } });
    expect(context.response.status).toBe(429);
    expect(context.response.headers.get('retry-after')).toBe('60');
  });

  it('refuses a body that is not a form (400) without running the handler', async () => {
    let ran = false;
    const context = page(post('{"name":"Ana"}', 'application/json'));
    const answer = await handleForm(context, () => {
      ran = true;
      return seeOther('/');
    });
    expect(ran).toBe(false);
    expect(answer).toEqual({ status: 400, errors: { _: FORM_UNREADABLE } });
    expect(context.response.status).toBe(400);
  });

  it('refuses bytes that are not UTF-8', async () => {
    const request = new Request('http://localhost/page', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new Uint8Array([0x6e, 0x3d, 0xff]),
    });
    expect(await handleForm(page(request), () => seeOther('/'))).toMatchObject({ status: 400 });
  });

  it('does nothing for a GET', async () => {
    const context = page(new Request('http://localhost/page'));
    expect(await handleForm(context, () => seeOther('/'))).toBeNull();
    expect(context.response.status).toBe(200);
  });

  it('uses a page’s own reader (a multipart upload) and its refusal', async () => {
    const context = page(post('x'));
    const answer = await handleForm(
      context,
      () => seeOther('/'),
      async () => refuse<never>(413, { photo: 'Too large' }),
    );
    expect(answer).toEqual({ status: 413, errors: { photo: 'Too large' } });
  });

  it('picks named fields, blank when absent, never cut', () => {
    const form = new URLSearchParams({ a: 'x'.repeat(50_000), c: 'not picked' });
    expect(pick(form, ['a', 'b'])).toEqual({ a: 'x'.repeat(50_000), b: '' });
  });

  it('shows a known notice on the GET after the redirect only', () => {
    const notices = { saved: 'Saved.' };
    const url = new URL('http://localhost/page?done=saved');
    expect(noticeOf(new Request(url), url, notices)).toBe('Saved.');
    expect(noticeOf(new Request(url, { method: 'POST' }), url, notices)).toBeNull();
    const other = new URL('http://localhost/page?done=toString');
    expect(noticeOf(new Request(other), other, notices)).toBeNull();
  });
});

describe('a domain refusal on a form page', () => {
  it('answers with the reason’s status, in place, for every reason', async () => {
    // One refusal for each reason, as result.ts's constructors make them.
    const refusals = REASONS.map(
      (reason) => ({ ok: false, reason, message: `A ${reason} refusal.`, ...(reason === 'rate_limited' ? { retryAfterSeconds: 120 } : {}) }) as Refusal,
    );
    const statuses = [];
    for (const refusal of refusals) {
      const context = page(post('name=Ana'));
      const answer = await handleForm(context, () => formRefusal(refusal, { name: 'Ana' }));
      expect(answer).toMatchObject({ status: statusOf(refusal), values: { name: 'Ana' } });
      statuses.push(context.response.status);
    }
    expect(statuses).toEqual([422, 400, 401, 403, 404, 409, 410, 413, 415, 429, 503, 502]);
  });

  it('shows the fields beside the form, else the message above it, unless the page says otherwise', () => {
    expect(formRefusal(invalid({ name: 'Name is required' })).errors).toEqual({ name: 'Name is required' });
    expect(formRefusal(conflict('Taken.', { fields: { slug: 'Taken.' } })).errors).toEqual({ slug: 'Taken.' });
    expect(formRefusal(notFound('That review is not on this listing.')).errors).toEqual({ _: 'That review is not on this listing.' });
    expect(formRefusal(invalid({}, 'Choose a photo to upload.')).errors).toEqual({ _: 'Choose a photo to upload.' });
    expect(formRefusal(rateLimited(60, 'Too many.'), undefined, { email: 'Please call us instead.' }).errors).toEqual({ email: 'Please call us instead.' });
  });

  it('sets Retry-After on the page when the refusal says to wait', async () => {
    const context = page(post('name=Ana'));
    await handleForm(context, () => formRefusal(rateLimited(120, 'Too many.')));
    expect(context.response.headers.get('retry-after')).toBe('120');
    expect(formRefusal(conflict('Taken.')).headers).toBeUndefined();
  });
});
