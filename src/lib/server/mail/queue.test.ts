import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mailQueue } from '#db/schema.ts';
import { createTestDb } from '#db/test-db.ts';
import { createMailQueue } from './queue.ts';
import { createMailer, type MailMessage, type Mailer } from './mailer.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.splice(0).forEach((cleanup) => cleanup());
  vi.useRealTimers();
});

function testDb() {
  const made = createTestDb();
  cleanups.push(made.cleanup);
  return made.db;
}

const quietLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });
const message = (n: number): MailMessage => ({ to: `client${n}@example.com`, subject: `Message ${n}`, text: 'Hello', html: '<p>Hello</p>' });

/** A mailer whose answers the test decides: `fail(n)` says whether the nth attempt fails. */
function scriptedMailer(fail: (attempt: number, message: MailMessage) => boolean = () => false) {
  const delivered: MailMessage[] = [];
  let attempts = 0;
  const mailer: Mailer = {
    send: vi.fn(async (sent: MailMessage) => {
      attempts++;
      if (fail(attempts, sent)) throw new Error(`refused attempt ${attempts}`);
      delivered.push(sent);
      return { messageId: `<${attempts}@test>` };
    }),
  };
  return { mailer, delivered, attempts: () => attempts };
}

describe('the mail queue', () => {
  it('stores a message before sending it and marks it sent', async () => {
    const db = testDb();
    const { mailer, delivered } = scriptedMailer();
    const queue = createMailQueue({ db, mailer, log: quietLog() });
    const id = queue.enqueue(message(1));
    // Stored at once, whatever happens to the process next.
    expect(db.select().from(mailQueue).all()).toMatchObject([{ id, sentAt: null, message: message(1) }]);
    await queue.drain();
    expect(delivered).toEqual([message(1)]);
    expect(db.select().from(mailQueue).all()[0]).toMatchObject({ attempts: 1, lastError: null });
    expect(db.select().from(mailQueue).all()[0]!.sentAt).toBeInstanceOf(Date);
    expect(queue.pending()).toBe(0);
  });

  it('sends each of many messages exactly once, several at a time', async () => {
    const db = testDb();
    const { mailer, delivered } = scriptedMailer();
    const queue = createMailQueue({ db, mailer, log: quietLog(), concurrency: 4 });
    for (let n = 0; n < 60; n++) queue.enqueue(message(n));
    await queue.drain();
    expect(delivered.map((m) => m.subject).sort()).toEqual(Array.from({ length: 60 }, (_, n) => `Message ${n}`).sort());
  });

  it('retries a failed message after its pause, then gives up and logs it', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const db = testDb();
    const log = quietLog();
    const { mailer, attempts } = scriptedMailer((_, sent) => sent.subject === 'Message 1');
    const queue = createMailQueue({ db, mailer, log, backoffMs: [1_000, 5_000] });
    queue.enqueue(message(1));
    queue.enqueue(message(2));
    await queue.drain();
    expect(attempts()).toBe(2);
    expect(log.warn).toHaveBeenCalledWith(expect.stringMatching(/will be tried again in 1 s: refused attempt 1/));
    expect(queue.pending()).toBe(1);

    await vi.advanceTimersByTimeAsync(1_010);
    await queue.drain();
    expect(attempts()).toBe(3);
    await vi.advanceTimersByTimeAsync(5_010);
    await queue.drain();
    expect(attempts()).toBe(4);
    expect(log.error).toHaveBeenCalledWith(expect.stringMatching(/gave up on queued mail \d+ \("Message 1" to client1@example.com\) after 3 attempts/));
    expect(queue.pending()).toBe(0);
    const row = db.select().from(mailQueue).all().find((r) => (r.message as MailMessage).subject === 'Message 1');
    expect(row).toMatchObject({ attempts: 3, sentAt: null, lastError: 'refused attempt 4' });
    expect(row!.failedAt).toBeInstanceOf(Date);
  });

  it('a new process sends what the last one stored but never sent, into a real outbox', async () => {
    const db = testDb();
    // The first process stores two messages and dies before sending them.
    const dying = createMailQueue({ db, mailer: scriptedMailer().mailer, log: quietLog() });
    dying.stop();
    dying.enqueue(message(1));
    dying.enqueue(message(2));
    expect(dying.pending()).toBe(2);

    const outbox = mkdtempSync(join(tmpdir(), 'medspa-queue-outbox-'));
    cleanups.push(() => rmSync(outbox, { recursive: true, force: true }));
    const mailer = createMailer({ outboxDir: outbox, from: 'Directory <hello@example.com>', log: quietLog() });
    const restarted = createMailQueue({ db, mailer, log: quietLog() });
    await restarted.drain();
    expect(readdirSync(outbox).filter((name) => name.endsWith('.eml'))).toHaveLength(2);
    expect(restarted.pending()).toBe(0);
  });

  it('takes over a message whose attempt was cut off, once its lease is over', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const db = testDb();
    // An attempt that never finishes: the process died in the middle of it.
    const hung: Mailer = { send: () => new Promise(() => {}) };
    const first = createMailQueue({ db, mailer: hung, log: quietLog(), leaseMs: 60_000, concurrency: 1 });
    first.enqueue(message(1));
    await vi.advanceTimersByTimeAsync(10);
    first.stop();

    const { mailer, delivered } = scriptedMailer();
    const second = createMailQueue({ db, mailer, log: quietLog() });
    await second.drain();
    expect(delivered).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60_010);
    await second.drain();
    expect(delivered).toEqual([message(1)]);
  });

  it('at start-up, a message cut off mid-attempt is due again at once; one waiting out a failure keeps its pause', async () => {
    const db = testDb();
    const hung: Mailer = { send: () => new Promise(() => {}) };
    const first = createMailQueue({ db, mailer: hung, log: quietLog(), concurrency: 1 });
    first.enqueue(message(1));
    await Promise.resolve();
    first.stop();
    const failing = createMailQueue({ db, mailer: scriptedMailer(() => true).mailer, log: quietLog(), backoffMs: [60_000] });
    failing.enqueue(message(2));
    await failing.drain();
    failing.stop();

    const { mailer, delivered } = scriptedMailer();
    const restarted = createMailQueue({ db, mailer, log: quietLog() });
    expect(restarted.resumeInterrupted()).toBe(1);
    await restarted.drain();
    expect(delivered).toEqual([message(1)]);
    expect(restarted.pending()).toBe(1);
  });

  it('a message queued while another is being sent does not wait for it', async () => {
    const db = testDb();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const mailer: Mailer = {
      send: async (sent) => {
        started.push(sent.subject);
        if (sent.subject === 'Message 1') await gate;
        return { messageId: '<x@test>' };
      },
    };
    const queue = createMailQueue({ db, mailer, log: quietLog(), concurrency: 2 });
    queue.enqueue(message(1));
    await vi.waitFor(() => expect(started).toEqual(['Message 1']));
    queue.enqueue(message(2));
    await vi.waitFor(() => expect(started).toEqual(['Message 1', 'Message 2']));
    expect(queue.pending()).toBe(1);
    release();
    await queue.drain();
    expect(queue.pending()).toBe(0);
  });

  it('prunes only messages sent longer ago than asked', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const db = testDb();
    const { mailer } = scriptedMailer((_, sent) => sent.subject === 'Message 3');
    const queue = createMailQueue({ db, mailer, log: quietLog(), backoffMs: [60_000] });
    queue.enqueue(message(1));
    await queue.drain();
    vi.advanceTimersByTime(10 * 60_000);
    queue.enqueue(message(2));
    queue.enqueue(message(3));
    await queue.drain();
    expect(queue.pruneSent(5 * 60_000)).toBe(1);
    const left = db.select().from(mailQueue).all().map((row) => (row.message as MailMessage).subject).sort();
    // The recent one, and the unsent one however old it gets.
    expect(left).toEqual(['Message 2', 'Message 3']);
  });
});
