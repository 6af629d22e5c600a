// The review payloads, shared by the forms and the server (one schema each).
// Text is kept as typed (trimmed) and shown as plain text: never HTML, never
// links made clickable (docs/decisions/0023).
import { z } from 'zod';
import { REVIEW_MAX_REPLY, REVIEW_MAX_TEXT } from '#db/schema.ts';

export { REVIEW_MAX_REPLY, REVIEW_MAX_TEXT };
export const REVIEW_MIN_TEXT = 20;
export const VISIT_NOT_CONFIRMED = 'Confirm that you visited to publish a review';

/** Control characters other than line breaks and tabs carry nothing a reader sees. */
const plain = (value: string) =>
  value
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .trim();

/** Plain text of at most `max` characters; with `min`, of at least `min.length` (else its message). */
const plainText = (max: number, min?: { length: number; message: string }) => {
  const text = z.string().max(max, `Must be at most ${max} characters`);
  return z
    .string()
    .transform(plain)
    .pipe(min ? text.min(min.length, min.message) : text);
};

/** Plain text that may be left out: null when absent or empty. */
const optionalPlainText = (max: number) =>
  plainText(max)
    .optional()
    .transform((value) => value || null);

export const reviewSchema = z.object({
  rating: z.coerce
    .number({ message: 'Choose a rating from 1 to 5 stars' })
    .int('Choose a rating from 1 to 5 stars')
    .min(1, 'Choose a rating from 1 to 5 stars')
    .max(5, 'Choose a rating from 1 to 5 stars'),
  body: plainText(REVIEW_MAX_TEXT, { length: REVIEW_MIN_TEXT, message: `Tell others a little more: at least ${REVIEW_MIN_TEXT} characters` }),
  treatment: optionalPlainText(100),
  authorName: plainText(40, { length: 1, message: 'Enter the name to show with your review' }),
  // The client's own word that the visit took place (docs/decisions/0029): the
  // spa marked it completed; the review link asks the person it was sent to.
  visited: z.literal('yes', { message: VISIT_NOT_CONFIRMED }),
});

export type ReviewInput = z.output<typeof reviewSchema>;

export const replySchema = z.object({
  reply: plainText(REVIEW_MAX_REPLY, { length: 1, message: 'Write your reply' }),
});

export const REPORT_REASONS = {
  fake: 'It is not about a real visit',
  offensive: 'It is offensive or harassing',
  private: 'It shares someone’s private or medical information',
  other: 'Something else',
} as const;

export const reportSchema = z.object({
  reason: z.enum(Object.keys(REPORT_REASONS) as [keyof typeof REPORT_REASONS], { message: 'Choose why you are reporting this review' }),
  details: optionalPlainText(400),
});

export const decisionSchema = z.object({
  decision: z.enum(['kept', 'removed'], { message: 'Choose keep or remove' }),
  reason: plainText(500, { length: 5, message: 'Give the reason for the decision (it is logged)' }),
});

/** An editor's decision on a held review (docs/decisions/0029): publish it (the badge when its visit was paid), publish it without the badge, or remove it. */
export const HELD_DECISIONS = ['publish', 'publish-unverified', 'remove'] as const;
export type HeldDecision = (typeof HELD_DECISIONS)[number];

export const heldDecisionSchema = z.object({
  decision: z.enum(HELD_DECISIONS, { message: 'Choose publish or remove' }),
  reason: plainText(500, { length: 5, message: 'Give the reason for the decision (it is logged)' }),
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
