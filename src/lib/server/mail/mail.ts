// The app's mail, configured from the environment (see mailer.ts for how it
// sends, queue.ts for the queue, and README for SMTP_URL, MAIL_OUTBOX and
// MAIL_FROM). Two ways to send, for two kinds of message:
//   sendMail            awaited: the person is waiting for it (a sign-in link)
//   sendMailInBackground queued in the database: must arrive, must not delay
//                        the answer (booking and newsletter mail)
//   scheduleMail         queued for a later time under a key, which a later
//                        change moves or drops (booking reminders)
import { MAIL_FROM, MAIL_OUTBOX, SMTP_URL } from 'astro:env/server';
import { db } from '../db.ts';
import { createMailQueue, type MailSchedule } from './queue.ts';
import { createMailer, type MailMessage } from './mailer.ts';

export const mailer = createMailer({ smtpUrl: SMTP_URL || undefined, outboxDir: MAIL_OUTBOX, from: MAIL_FROM });
export const sendMail = mailer.send;

const queue = createMailQueue({ db, mailer });
// Whatever an earlier process left unsent goes out now.
void queue.drain();

export function sendMailInBackground(message: MailMessage): void {
  queue.enqueue(message);
}

export function scheduleMail(message: MailMessage, when: MailSchedule): void {
  queue.schedule(message, when);
}

/** Resolves once the queue has nothing in flight: a test file awaits it, so no mail of its goes out during the next file. */
export function drainMail(): Promise<void> {
  return queue.drain();
}

export function unscheduleMail(keys: readonly string[]): void {
  queue.unschedule(keys);
}
