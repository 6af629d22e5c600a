import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMailer, isTransient, senderDomain, type MailMessage } from './mailer.ts';
import { parseMime, partOfType, smtpError, startLoopbackSmtp } from '#tests/support/smtp.ts';

// --- a loopback SMTP server (smtp-test-kit.ts) --------------------------------

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  vi.restoreAllMocks();
});

async function startSmtp(reply?: Parameters<typeof startLoopbackSmtp>[0]) {
  const smtp = await startLoopbackSmtp(reply);
  cleanups.push(smtp.close);
  return smtp;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'medspa-mail-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// --- fixtures ----------------------------------------------------------------

const FROM = 'Test Directory <hello@ocmedspa.test>';

const message: MailMessage = {
  to: 'client@example.com',
  subject: 'Your booking request',
  text: 'We received your request for Botox at Glow Spa.',
  html: '<p>We received your request for <strong>Botox</strong> at Glow Spa.</p>',
};

const ical = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//OC Med Spa Directory//Bookings//EN',
  'METHOD:REQUEST',
  'BEGIN:VEVENT',
  'UID:booking-42@ocmedspa.test',
  'DTSTAMP:20260101T170000Z',
  'DTSTART:20260110T170000Z',
  'DTEND:20260110T180000Z',
  'SUMMARY:Botox at Glow Spa',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

function quietLog() {
  return { info: vi.fn<(message: string) => void>(), warn: vi.fn<(message: string) => void>(), error: vi.fn<(message: string) => void>() };
}

// --- tests -------------------------------------------------------------------

describe('createMailer with SMTP', () => {
  it('delivers a multipart/alternative message with a text and an HTML part to the envelope recipient', async () => {
    const smtp = await startSmtp();
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', from: FROM, log: quietLog() });

    const sent = await mailer.send({ ...message, replyTo: 'glow@example.com', headers: { 'X-Booking-Id': '42' } });

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.to).toEqual(['client@example.com']);
    expect(mail?.from).toBe('hello@ocmedspa.test');
    const root = parseMime(mail!.raw);
    expect(root.headers.subject).toBe('Your booking request');
    expect(root.headers.from).toBe(FROM);
    expect(root.headers['reply-to']).toBe('glow@example.com');
    expect(root.headers['x-booking-id']).toBe('42');
    expect(root.headers['message-id']).toBe(sent.messageId);
    expect(sent.messageId).toMatch(/^<[0-9a-f-]{36}@ocmedspa\.test>$/);
    expect(sent.outboxPath).toBeUndefined();
    expect(root.headers['content-type']).toMatch(/^multipart\/alternative;/);
    expect(partOfType(root, 'text/plain')?.body).toContain(message.text);
    expect(partOfType(root, 'text/html')?.body).toContain(message.html);
  });

  it('adds the calendar invitation as a text/calendar; method=REQUEST alternative', async () => {
    const smtp = await startSmtp();
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', from: FROM, log: quietLog() });

    await mailer.send({ ...message, icalEvent: { method: 'REQUEST', content: ical } });

    const root = parseMime(smtp.received[0]!.raw);
    const alternative = partOfType(root, 'multipart/alternative');
    expect(alternative).toBeDefined();
    const types = alternative!.parts.map((part) => part.headers['content-type'] ?? '');
    expect(types.some((type) => type.startsWith('text/plain'))).toBe(true);
    expect(types.some((type) => type.startsWith('text/html'))).toBe(true);
    const calendar = alternative!.parts.find((part) => part.headers['content-type']?.startsWith('text/calendar'));
    expect(calendar?.headers['content-type']).toMatch(/method=REQUEST/);
    expect(calendar?.body).toContain('SUMMARY:Botox at Glow Spa');
  });
});

describe('createMailer without SMTP (outbox)', () => {
  it('writes exactly one .eml per message, with the subject and both parts, and logs where', async () => {
    const dir = join(await tempDir(), 'outbox');
    const log = quietLog();
    const mailer = createMailer({ outboxDir: dir, from: FROM, log });

    const first = await mailer.send(message);
    const second = await mailer.send({ ...message, subject: 'A second message' });

    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(2);
    expect(files.every((name) => /^\d{4}-\d\d-\d\dT\d{6}\.\d{3}Z-[0-9a-f]{8}\.eml$/.test(name))).toBe(true);
    expect([first.outboxPath, second.outboxPath].sort()).toEqual(files.map((name) => join(dir, name)));

    const root = parseMime(await readFile(first.outboxPath!, 'utf8'));
    expect(root.headers.subject).toBe('Your booking request');
    expect(root.headers['message-id']).toBe(first.messageId);
    expect(partOfType(root, 'text/plain')?.body).toContain(message.text);
    expect(partOfType(root, 'text/html')?.body).toContain(message.html);
    expect(log.info).toHaveBeenCalledWith(`wrote ${first.outboxPath} to client@example.com: Your booking request`);
  });

  it('logs through the project logger as "mail: wrote <path> to <to>: <subject>"', async () => {
    const dir = await tempDir();
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const sent = await createMailer({ outboxDir: dir, from: FROM }).send(message);
    expect(stdout).toHaveBeenCalledWith(`mail: wrote ${sent.outboxPath} to client@example.com: Your booking request\n`);
  });

  it('refuses a message without an HTML part, without retrying', async () => {
    const dir = await tempDir();
    const log = quietLog();
    const mailer = createMailer({ outboxDir: dir, from: FROM, retryDelayMs: 5, log });
    await expect(mailer.send({ ...message, html: '' })).rejects.toThrow(/text and an HTML part/);
    expect(log.warn).not.toHaveBeenCalled();
    expect(log.error).toHaveBeenCalledOnce();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('retries', () => {
  it('retries a 451 (temporary) reply and succeeds on the second attempt', async () => {
    const smtp = await startSmtp((attempt) => (attempt === 1 ? smtpError(451, 'Try again later') : null));
    const log = quietLog();
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', from: FROM, retryDelayMs: 5, log });

    await expect(mailer.send(message)).resolves.toMatchObject({ messageId: expect.stringMatching(/@ocmedspa\.test>$/) });
    expect(smtp.attempts()).toBe(2);
    expect(smtp.received).toHaveLength(1);
    expect(log.warn).toHaveBeenCalledOnce();
    expect(log.warn.mock.calls[0]?.[0]).toMatch(/attempt 1 of 4 .*Try again later.*retrying in 5 ms/);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('gives up after the configured retries and rejects', async () => {
    const smtp = await startSmtp(() => smtpError(451, 'Still busy'));
    const log = quietLog();
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', from: FROM, retries: 2, retryDelayMs: 5, log });

    await expect(mailer.send(message)).rejects.toMatchObject({ responseCode: 451 });
    expect(smtp.attempts()).toBe(3);
    expect(log.warn).toHaveBeenCalledTimes(2);
    expect(log.error).toHaveBeenCalledOnce();
    expect(log.error.mock.calls[0]?.[0]).toMatch(/after 3 attempts/);
  });

  it('does not retry a 550 (permanent) rejection', async () => {
    const smtp = await startSmtp(() => smtpError(550, 'No such user'));
    const log = quietLog();
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', from: FROM, retryDelayMs: 5, log });

    await expect(mailer.send(message)).rejects.toMatchObject({ responseCode: 550 });
    expect(smtp.attempts()).toBe(1);
    expect(log.warn).not.toHaveBeenCalled();
    expect(log.error).toHaveBeenCalledOnce();
    expect(log.error.mock.calls[0]?.[0]).toMatch(/will not retry: .*No such user/);
  });
});

describe('helpers', () => {
  it('treats network failures and 4xx replies as transient, 5xx and other errors as final', () => {
    const withProps = (props: object) => Object.assign(new Error('x'), props);
    expect(isTransient(withProps({ code: 'ESOCKET', originalCode: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransient(withProps({ code: 'ETIMEDOUT' }))).toBe(true);
    expect(isTransient(withProps({ code: 'EMESSAGE', responseCode: 451 }))).toBe(true);
    expect(isTransient(withProps({ code: 'EENVELOPE', responseCode: 421 }))).toBe(true);
    expect(isTransient(withProps({ code: 'EMESSAGE', responseCode: 503 }))).toBe(true);
    expect(isTransient(withProps({ code: 'EMESSAGE', responseCode: 550 }))).toBe(false);
    expect(isTransient(withProps({ code: 'EAUTH', responseCode: 535 }))).toBe(false);
    expect(isTransient(withProps({ code: 'ECONFIG' }))).toBe(false);
    expect(isTransient('not an error')).toBe(false);
  });

  it('takes the Message-ID domain from the sender address', () => {
    expect(senderDomain('Orange County Med Spa Directory <hello@OCMedSpaDirectory.com>')).toBe('ocmedspadirectory.com');
    expect(senderDomain('bookings@example.org')).toBe('example.org');
    expect(senderDomain('no address')).toBe('localhost');
  });
});
