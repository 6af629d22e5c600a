// Row ids arrive as path segments, form fields, query strings and JSON. One
// parser and one answer for all of them: a bad id is "no such thing" (404),
// the same as an id that names nothing, so guessing teaches nobody anything.
import { z } from 'zod';

/** SQLite's rowids here are positive and stay far below 2^31. */
const MAX_ID = 2 ** 31 - 1;

/** A positive integer id from a string or number, or null. */
export function parseId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 && value <= MAX_ID ? value : null;
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}

/** The same rule for zod schemas (JSON bodies and forms). */
export const idSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const id = parseId(value);
  if (id === null) {
    ctx.addIssue({ code: 'custom', message: 'Invalid id' });
    return z.NEVER;
  }
  return id;
});
