// The one way the site sends mail. With an SMTP URL it delivers; without one
// every message is written as an .eml file, so development, tests and demo
// installs need no mail server and nothing is sent to real people by accident.
// Kept free of astro:env so scripts and tests can build their own mailer;
// the app's configured one is in mail.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import nodemailer from 'nodemailer';
import type { NodemailerError, SendMailOptions } from 'nodemailer';
import { logger } from '#lib/log.ts';

export interface MailMessage {
  to: string;
  subject: string;
  /** Both parts are required: some clients and many filters read only the text. */
  text: string;
  html: string;
  replyTo?: string;
  /** An iCalendar invitation (REQUEST) or cancellation (CANCEL), shown by clients as a calendar card. */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; content: string; filename?: string };
  headers?: Record<string, string>;
}

export interface SentMail {
  messageId: string;
  /** Where the message was written, in outbox mode. */
  outboxPath?: string;
}

export type MailLogger = ReturnType<typeof logger>;

export interface MailerConfig {
  smtpUrl?: string;
  outboxDir: string;
  from: string;
  /** Further attempts after a transient failure. */
  retries?: number;
  /** Wait before the first retry; doubled for each one after. */
  retryDelayMs?: number;
  /** Where failures and outbox paths are reported; tests pass their own. */
  log?: MailLogger;
}

export interface Mailer {
  /** Delivers (or writes) the message, retrying transient failures; rejects when it finally fails. */
  send(message: MailMessage): Promise<SentMail>;
}

// Errors that say the connection or the network failed rather than that the
// message was refused: the same message can go through on a later attempt.
const NETWORK_CODES = new Set([
  'ECONNECTION',
  'ESOCKET',
  'ETIMEDOUT',
  'EDNS',
  'EPROXY',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** 4xx replies (and 503, a session in the wrong state) and network failures are worth another try; 5xx are final. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { responseCode, code, originalCode } = error as NodemailerError;
  if (typeof responseCode === 'number') return !(responseCode >= 500 && responseCode < 600 && responseCode !== 503);
  return NETWORK_CODES.has(code ?? '') || NETWORK_CODES.has(originalCode ?? '');
}

/** The domain of the sender's address, so Message-IDs are ours and not the host name of whichever machine sent them. */
export function senderDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from.trim());
  return match?.[1]?.toLowerCase() ?? 'localhost';
}

const label = (message: MailMessage) => `"${message.subject}" to ${message.to}`;

export function createMailer(config: MailerConfig): Mailer {
  const log = config.log ?? logger('mail');
  const retries = config.retries ?? 3;
  const retryDelayMs = config.retryDelayMs ?? 500;
  const domain = senderDomain(config.from);
  const outboxDir = resolve(config.outboxDir);
  // Message content never names files or URLs for nodemailer to fetch: an
  // address or text a visitor typed must not read the server's disk.
  const access = { disableFileAccess: true, disableUrlAccess: true };
  const transport = config.smtpUrl
    ? nodemailer.createTransport({
        url: config.smtpUrl,
        ...access,
        // Defaults are minutes long; a caller awaiting send (a sign-in link)
        // should hear of a dead server in seconds and let the retries work.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix', ...access });

  function options(message: MailMessage): SendMailOptions {
    if (!message.text || !message.html) throw new Error(`mail ${label(message)} needs both a text and an HTML part`);
    const { icalEvent } = message;
    return {
      from: config.from,
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: `<${randomUUID()}@${domain}>`,
      headers: message.headers,
      icalEvent: icalEvent && {
        method: icalEvent.method,
        content: icalEvent.content,
        filename: icalEvent.filename ?? (icalEvent.method === 'CANCEL' ? 'cancel.ics' : 'invite.ics'),
      },
    };
  }

  async function writeToOutbox(raw: Buffer): Promise<string> {
    await mkdir(outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/:/g, '')}-${randomBytes(4).toString('hex')}.eml`;
    const path = join(outboxDir, name);
    // Written aside and renamed in, so anything watching the outbox (a test
    // waiting for a sign-in link) never reads half a message.
    const partial = `${path}.partial`;
    await writeFile(partial, raw, { flag: 'wx' });
    await rename(partial, path);
    return path;
  }

  async function attempt(message: MailMessage): Promise<SentMail> {
    const info = await transport.sendMail(options(message));
    if (config.smtpUrl) return { messageId: info.messageId };
    if (!Buffer.isBuffer(info.message)) throw new Error('the stream transport did not hand back the message');
    const outboxPath = await writeToOutbox(info.message);
    log.info(`wrote ${outboxPath} to ${message.to}: ${message.subject}`);
    return { messageId: info.messageId, outboxPath };
  }

  async function send(message: MailMessage): Promise<SentMail> {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt(message);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (tries <= retries && isTransient(error)) {
          const wait = retryDelayMs * 2 ** (tries - 1);
          log.warn(`attempt ${tries} of ${retries + 1} for ${label(message)} failed (${reason}); retrying in ${wait} ms`);
          await sleep(wait);
          continue;
        }
        const why = isTransient(error) ? `after ${tries} attempt${tries === 1 ? '' : 's'}` : 'and will not retry';
        log.error(`could not send ${label(message)} ${why}: ${reason}`);
        throw error;
      }
    }
  }

  return { send };
}

/** Deletes messages an outbox writer left half-written (it was killed); their queue rows are still unsent. */
export function removeUnfinishedOutboxFiles(outboxDir: string): number {
  let removed = 0;
  try {
    for (const name of readdirSync(outboxDir)) {
      if (!name.endsWith('.partial')) continue;
      rmSync(join(outboxDir, name), { force: true });
      removed++;
    }
  } catch {
    // No outbox yet: nothing to tidy.
  }
  return removed;
}
