import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  conflict,
  fieldErrors,
  forbidden,
  gone,
  invalid,
  malformed,
  notFound,
  ok,
  outcomeOf,
  parseWith,
  rateLimited,
  REASONS,
  tooLarge,
  unauthorized,
  unavailable,
  unsupported,
  upstreamFailed,
} from './result.ts';

describe('results', () => {
  it('carries a value when ok, with or without one', () => {
    expect(ok({ id: 3 })).toEqual({ ok: true, value: { id: 3 } });
    expect(ok()).toEqual({ ok: true, value: undefined });
  });

  it('has one constructor for each reason, each refusing with its message', () => {
    const made = [
      invalid({ name: 'Name is required' }),
      malformed('Unknown action.'),
      unauthorized(),
      forbidden('Not yours.'),
      notFound('Spa not found.'),
      conflict('Taken.'),
      gone('Expired.'),
      tooLarge('Too big.'),
      unsupported('Not a photo.'),
      rateLimited(60, 'Too many.'),
      unavailable('Not configured.'),
      upstreamFailed('Stripe is down.'),
    ];
    expect(made.map((refusal) => refusal.reason)).toEqual([...REASONS]);
    for (const refusal of made) {
      expect(refusal.ok).toBe(false);
      expect(refusal.message.length).toBeGreaterThan(0);
    }
    expect(unauthorized().message).toBe('Sign in to continue.');
    expect(invalid({ name: 'Name is required' })).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'Some fields are not valid.',
      fields: { name: 'Name is required' },
    });
    expect(rateLimited(60, 'Too many.')).toEqual({ ok: false, reason: 'rate_limited', message: 'Too many.', retryAfterSeconds: 60 });
  });

  it('keeps a code, fields and details when given, and nothing it was not given', () => {
    const alternatives = ['2026-12-01T17:00:00Z', '2026-12-01T18:00:00Z'];
    expect(conflict('That time was just taken.', { code: 'slot_taken', details: { alternatives } })).toEqual({
      ok: false,
      reason: 'conflict',
      message: 'That time was just taken.',
      code: 'slot_taken',
      details: { alternatives },
    });
    expect(forbidden('Part of Premium.', { fields: { featured: 'Part of Premium.' } })).toEqual({
      ok: false,
      reason: 'forbidden',
      message: 'Part of Premium.',
      fields: { featured: 'Part of Premium.' },
    });
    expect(Object.keys(notFound('Spa not found.'))).toEqual(['ok', 'reason', 'message']);
  });

  it('says in one word what a result came to', () => {
    expect(outcomeOf(ok(1))).toBe('ok');
    expect(outcomeOf(gone('Expired.'))).toBe('gone');
  });
});

describe('parsing', () => {
  const schema = z.object({ name: z.string().min(1, 'Name is required'), hours: z.number({ message: 'Whole hours' }) });

  it('gives the parsed value, or invalid with the first message per field', () => {
    expect(parseWith(schema, { name: 'Ana', hours: 2 })).toEqual({ ok: true, value: { name: 'Ana', hours: 2 } });
    expect(parseWith(schema, { name: '' })).toEqual(invalid({ name: 'Name is required', hours: 'Whole hours' }));
  });

  it('names a nested field by its path, and the input as a whole `_`', () => {
    const parsed = z.object({ spaData: z.object({ name: z.string() }) }).safeParse({ spaData: {} });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(fieldErrors(parsed.error)).toEqual({ 'spaData.name': expect.any(String) });
    const whole = z.string().safeParse(3);
    if (!whole.success) expect(Object.keys(fieldErrors(whole.error))).toEqual(['_']);
  });
});
