// The review payloads, shared by the forms and the server (one schema each).
// Text is kept as typed (trimmed) and shown as plain text: never HTML, never
// links made clickable (docs/decisions/0023).
import { z } from 'zod';
import { REVIEW_MAX_REPLY, REVIEW_MAX_TEXT } from '#db/schema.ts';

export { REVIEW_MAX_REPLY, REVIEW_MAX_TEXT };
export const REVIEW_MIN_TEXT = 20;

/** Control characters other than line breaks and tabs carry nothing a reader sees. */
const plain = (value: string) => value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();

export const reviewSchema = z.object({
  rating: z.coerce
    .number({ message: 'Choose a rating from 1 to 5 stars' })
    .int('Choose a rating from 1 to 5 stars')
    .min(1, 'Choose a rating from 1 to 5 stars')
    .max(5, 'Choose a rating from 1 to 5 stars'),
  body: z
    .string()
    .transform(plain)
    .pipe(
      z
        .string()
        .min(REVIEW_MIN_TEXT, `Tell others a little more: at least ${REVIEW_MIN_TEXT} characters`)
        .max(REVIEW_MAX_TEXT, `Must be at most ${REVIEW_MAX_TEXT} characters`),
    ),
  treatment: z
    .string()
    .transform(plain)
    .pipe(z.string().max(100, 'Must be at most 100 characters'))
    .optional()
    .transform((value) => value || null),
  authorName: z
    .string()
    .transform(plain)
    .pipe(z.string().min(1, 'Enter the name to show with your review').max(40, 'Must be at most 40 characters')),
});

export type ReviewInput = z.output<typeof reviewSchema>;

export const replySchema = z.object({
  reply: z
    .string()
    .transform(plain)
    .pipe(z.string().min(1, 'Write your reply').max(REVIEW_MAX_REPLY, `Must be at most ${REVIEW_MAX_REPLY} characters`)),
});

export const REPORT_REASONS = {
  fake: 'It is not about a real visit',
  offensive: 'It is offensive or harassing',
  private: 'It shares someone’s private or medical information',
  other: 'Something else',
} as const;

export const reportSchema = z.object({
  reason: z.enum(Object.keys(REPORT_REASONS) as [keyof typeof REPORT_REASONS], { message: 'Choose why you are reporting this review' }),
  details: z
    .string()
    .transform(plain)
    .pipe(z.string().max(400, 'Must be at most 400 characters'))
    .optional()
    .transform((value) => value || null),
});

export const decisionSchema = z.object({
  decision: z.enum(['kept', 'removed'], { message: 'Choose keep or remove' }),
  reason: z
    .string()
    .transform(plain)
    .pipe(z.string().min(5, 'Give the reason for the decision (it is logged)').max(500, 'Must be at most 500 characters')),
});

/** "2026-10" -> "October 2026". */
export function visitMonthLabel(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, m! - 1, 15)).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** Count, average (one decimal) and count per star, 5 down to 1. */
export function summarise(ratings: number[]): { count: number; average: number | null; distribution: { stars: number; count: number }[] } {
  const distribution = [5, 4, 3, 2, 1].map((stars) => ({ stars, count: ratings.filter((r) => r === stars).length }));
  const count = ratings.length;
  const average = count === 0 ? null : Math.round((ratings.reduce((a, b) => a + b, 0) / count) * 10) / 10;
  return { count, average, distribution };
}
