// The app's mailer, configured from the environment (see mailer.ts for how it
// sends, and README for SMTP_URL, MAIL_OUTBOX and MAIL_FROM).
import { MAIL_FROM, MAIL_OUTBOX, SMTP_URL } from 'astro:env/server';
import { createMailer } from './mailer.ts';

export const mailer = createMailer({ smtpUrl: SMTP_URL || undefined, outboxDir: MAIL_OUTBOX, from: MAIL_FROM });
export const sendMail = mailer.send;
export const sendMailInBackground = mailer.sendInBackground;
