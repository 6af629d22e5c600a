// A request the spa has left unanswered for 24 hours (the client was told to
// expect an answer within 24) reminds the spa by e-mail, once. Run by the
// background-jobs process (housekeeping.ts); takes the database as a parameter
// and reads no astro:env, like the rest of housekeeping.
import { and, eq, gt, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookings, services, spas, users } from '#db/schema.ts';
import { contact } from '#content/site.ts';
import { formatPacificDateTime } from '#lib/dates.ts';
import { renderEmail } from '../mail/layout.ts';
import { storeMail } from '../mail/queue.ts';
import { spaInbox } from '../db-helpers.ts';
import type { MailMessage } from '../mail/mailer.ts';

export const UNANSWERED_AFTER_MS = 24 * 3_600_000;
/**
 * Older requests are not chased: the first run after this feature ships, or
 * after a long outage, must not flood an inbox with weeks-old requests.
 */
export const UNANSWERED_LOOKBACK_MS = 7 * 24 * 3_600_000;

export interface UnansweredRequest {
  id: number;
  name: string;
  createdAt: Date;
  spaName: string;
  serviceName: string | null;
  inbox: string;
}

export function unansweredRequestMail(request: UnansweredRequest, origin: string): MailMessage {
  return {
    to: request.inbox,
    subject: `Waiting for your answer: ${request.name}'s request`,
    ...renderEmail({
      preheader: `${request.name} has waited more than 24 hours.`,
      heading: 'A request is waiting for your answer',
      paragraphs: [
        `${request.name} asked ${request.spaName} for ${request.serviceName ?? 'a consultation'} on ${formatPacificDateTime(request.createdAt)} and was told to expect your answer within 24 hours.`,
        'Confirm a time or decline from your dashboard, so the client can plan. This is the only reminder about this request.',
      ],
      action: { label: 'Open your dashboard', url: new URL('/owner/dashboard', origin).href },
    }),
  };
}

/**
 * Finds the spa requests pending for 24 hours (and at most a week), marks each
 * reminded and queues its mail in one transaction: a crash leaves either both
 * or neither, and the mark keeps a second run, or a second process, from
 * mailing it again. Returns how many were sent for.
 */
export function remindUnansweredRequests(db: Db, origin: string, now: number = Date.now()): number {
  const due = db
    .select({
      id: bookings.id,
      name: bookings.name,
      createdAt: bookings.createdAt,
      spaName: spas.name,
      serviceName: services.name,
      inbox: spaInbox,
    })
    .from(bookings)
    .innerJoin(spas, eq(bookings.spaId, spas.id))
    .leftJoin(users, eq(spas.ownerId, users.id))
    .leftJoin(services, eq(bookings.serviceId, services.id))
    .where(
      and(
        eq(bookings.status, 'pending'),
        isNull(bookings.ownerRemindedAt),
        isNotNull(bookings.spaId),
        lte(bookings.createdAt, new Date(now - UNANSWERED_AFTER_MS)),
        gt(bookings.createdAt, new Date(now - UNANSWERED_LOOKBACK_MS)),
      ),
    )
    .all();
  let reminded = 0;
  for (const row of due) {
    db.transaction((tx) => {
      const marked = tx
        .update(bookings)
        .set({ ownerRemindedAt: new Date(now) })
        .where(and(eq(bookings.id, row.id), isNull(bookings.ownerRemindedAt), eq(bookings.status, 'pending')))
        .run();
      if (marked.changes === 0) return;
      storeMail(tx, unansweredRequestMail({ ...row, inbox: row.inbox ?? contact.email }, origin), new Date(now));
      reminded++;
    });
  }
  return reminded;
}
