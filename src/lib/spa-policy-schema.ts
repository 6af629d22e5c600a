// A spa's booking policies as its owner sets them (/owner/spas/{id}/policies):
// the cancellation window, and no-show protection (a card on file or a
// deposit, and the fees). One schema per form, for the form and the server.
import * as z from 'zod/mini';
import { CANCELLATION_WINDOW_RANGE } from './booking-lifecycle.ts';
import { MAX_FIXED_CENTS, type AmountRule, type NoShowPolicy } from './no-show-policy.ts';

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

// --- No-show protection (issue 25): its own form on the same page ------------

export const NO_SHOW_MESSAGES = {
  protection: 'Choose no protection, a card on file or a deposit',
  kind: 'Choose a fixed amount or a percentage',
  amount: 'Enter dollars (like 25 or 25.50, at most $10,000) or, for a percentage, a whole number from 1 to 100',
  deposit: 'A deposit needs an amount: dollars, or a percentage of the treatment’s price',
  cardNeedsFee: 'A card on file needs a late-cancellation fee or a no-show fee: set at least one',
} as const;

const formText = z.optional(z.string());

/** "25", "25.50" dollars as cents, or "20" percent; null when it does not read so. */
function amountRule(kind: string | undefined, raw: string | undefined): AmountRule | null {
  const value = (raw ?? '').trim();
  if (kind === 'fixed' && /^\d{1,5}(\.\d{1,2})?$/.test(value)) {
    const cents = Math.round(Number(value) * 100);
    return cents > 0 && cents <= MAX_FIXED_CENTS ? { kind: 'fixed', cents } : null;
  }
  if (kind === 'percent' && /^\d{1,3}$/.test(value)) {
    const percent = Number(value);
    return percent >= 1 && percent <= 100 ? { kind: 'percent', percent } : null;
  }
  return null;
}

/**
 * The protection form: what the spa asks of a client's card, as the form
 * sends it (protection none | card | deposit; depositKind and depositAmount;
 * lateFeeKind and noShowFeeKind none | fixed | percent with their amounts),
 * read into the policy stored on the spa (null: none). Whether payments are
 * configured is the server's to add (policies.ts).
 */
export const noShowPolicySchema = z.pipe(
  z.object({
    protection: formText,
    depositKind: formText,
    depositAmount: formText,
    lateFeeKind: formText,
    lateFeeAmount: formText,
    noShowFeeKind: formText,
    noShowFeeAmount: formText,
  }),
  z.transform((input, ctx): NoShowPolicy | null => {
    const issue = (path: string, message: string) => ctx.issues.push({ code: 'custom', message, input, path: [path] });
    const mode = input.protection ?? 'none';
    if (mode !== 'none' && mode !== 'card' && mode !== 'deposit') {
      issue('protection', NO_SHOW_MESSAGES.protection);
      return null;
    }
    if (mode === 'none') return null;
    const fee = (kindField: 'lateFeeKind' | 'noShowFeeKind', amountField: 'lateFeeAmount' | 'noShowFeeAmount'): AmountRule | null => {
      const kind = input[kindField] ?? 'none';
      if (kind === 'none') return null;
      if (kind !== 'fixed' && kind !== 'percent') {
        issue(kindField, NO_SHOW_MESSAGES.kind);
        return null;
      }
      const rule = amountRule(kind, input[amountField]);
      if (!rule) issue(amountField, NO_SHOW_MESSAGES.amount);
      return rule;
    };
    const lateCancelFee = fee('lateFeeKind', 'lateFeeAmount');
    const noShowFee = fee('noShowFeeKind', 'noShowFeeAmount');
    let deposit: AmountRule | null = null;
    if (mode === 'deposit') {
      if (input.depositKind !== 'fixed' && input.depositKind !== 'percent') issue('depositKind', NO_SHOW_MESSAGES.kind);
      else if (!(deposit = amountRule(input.depositKind, input.depositAmount)))
        issue('depositAmount', input.depositAmount?.trim() ? NO_SHOW_MESSAGES.amount : NO_SHOW_MESSAGES.deposit);
    } else if (!lateCancelFee && !noShowFee && (input.lateFeeKind ?? 'none') === 'none' && (input.noShowFeeKind ?? 'none') === 'none') {
      issue('lateFeeKind', NO_SHOW_MESSAGES.cardNeedsFee);
    }
    return { mode, deposit, lateCancelFee, noShowFee };
  }),
);
