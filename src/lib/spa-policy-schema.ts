// A spa's booking policies as its owner sets them (/owner/spas/{id}/policies):
// for now the cancellation window. One schema for the form and the server.
import * as z from 'zod/mini';
import { CANCELLATION_WINDOW_RANGE } from './booking-lifecycle.ts';

export const CANCELLATION_WINDOW_MESSAGE = `Enter a whole number of hours from ${CANCELLATION_WINDOW_RANGE.min} to ${CANCELLATION_WINDOW_RANGE.max}`;

/** Form fields arrive as text: '24' -> 24; anything but digits is refused, not guessed at. */
const wholeHours = z.pipe(
  z.string(CANCELLATION_WINDOW_MESSAGE).check(z.trim(), z.regex(/^\d{1,3}$/, CANCELLATION_WINDOW_MESSAGE)),
  z.pipe(
    z.transform((value: string) => Number(value)),
    z
      .int(CANCELLATION_WINDOW_MESSAGE)
      .check(z.gte(CANCELLATION_WINDOW_RANGE.min, CANCELLATION_WINDOW_MESSAGE), z.lte(CANCELLATION_WINDOW_RANGE.max, CANCELLATION_WINDOW_MESSAGE)),
  ),
);

export const spaPolicySchema = z.object({ cancellationWindowHours: wholeHours });
export type SpaPolicy = z.infer<typeof spaPolicySchema>;
