// The result of a domain call in this folder: a value, or a refusal with its
// reason, a message for people and, for a form, messages by field. Only the
// edge (an endpoint or a page) turns a refusal into a status. (Another module
// gives the whole site one such type; this one has the same shape.)
export type RefusalReason = 'invalid' | 'not_found' | 'forbidden' | 'conflict' | 'rate_limited' | 'unavailable';

export interface Refusal<R extends RefusalReason = RefusalReason> {
  ok: false;
  reason: R;
  message: string;
  fields?: Record<string, string>;
}

export type Result<T, R extends RefusalReason = RefusalReason> = { ok: true; value: T } | Refusal<R>;

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

export function refuse<R extends RefusalReason>(reason: R, message: string, fields?: Record<string, string>): Refusal<R> {
  return { ok: false, reason, message, ...(fields ? { fields } : {}) };
}

/** The HTTP status of each reason, for the edges. */
export const STATUS_OF: Record<RefusalReason, number> = {
  invalid: 422,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
};
