import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mailQueue, mailSentMarks } from '#db/schema.ts';
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
    const row = db
      .select()
      .from(mailQueue)
      .all()
      .find((r) => (r.message as MailMessage).subject === 'Message 1');
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
    const left = db
      .select()
      .from(mailQueue)
      .all()
      .map((row) => (row.message as MailMessage).subject)
      .sort();
    // The recent one, and the unsent one however old it gets.
    expect(left).toEqual(['Message 2', 'Message 3']);
  });
});

describe('scheduled (keyed) mail', () => {
  const T0 = Date.parse('2026-12-01T16:00:00Z');
  const H = 3_600_000;

  function walkingQueue(mailer: Mailer, options: { backoffMs?: number[] } = {}) {
    const db = testDb();
    let now = T0;
    const queue = createMailQueue({ db, mailer, log: quietLog(), now: () => now, ...options });
    cleanups.push(() => queue.stop());
    return { db, queue, walkTo: (hours: number) => (now = T0 + hours * H) };
  }

  it('waits for its time, and a second schedule under the same key replaces the first', async () => {
    const { mailer, delivered } = scriptedMailer();
    const { queue, walkTo } = walkingQueue(mailer);
    queue.schedule(message(1), { key: 'booking-1:reminder', notBefore: new Date(T0 + 5 * H), notAfter: new Date(T0 + 29 * H) });
    queue.schedule(message(2), { key: 'booking-1:reminder', notBefore: new Date(T0 + 10 * H), notAfter: new Date(T0 + 34 * H) });
    walkTo(9.99);
    await queue.drain();
    expect(delivered).toEqual([]);
    walkTo(10);
    await queue.drain();
    expect(delivered).toEqual([message(2)]);
    expect(queue.pending()).toBe(0);
  });

  it('unschedule drops what waits under the key, and only that', async () => {
    const { mailer, delivered } = scriptedMailer();
    const { queue, walkTo } = walkingQueue(mailer);
    queue.schedule(message(1), { key: 'booking-1:reminder', notBefore: new Date(T0 + H) });
    queue.schedule(message(2), { key: 'booking-2:reminder', notBefore: new Date(T0 + H) });
    expect(queue.unschedule(['booking-1:reminder', 'booking-9:reminder'])).toBe(1);
    walkTo(2);
    await queue.drain();
    expect(delivered).toEqual([message(2)]);
  });

  it('is dropped, not sent, once its not-after time has passed (a server down through it); sent late before then', async () => {
    const { mailer, delivered } = scriptedMailer();
    const { queue, walkTo, db } = walkingQueue(mailer);
    queue.schedule(message(1), { key: 'late-but-useful', notBefore: new Date(T0 + H), notAfter: new Date(T0 + 5 * H) });
    queue.schedule(message(2), { key: 'too-late', notBefore: new Date(T0 + H), notAfter: new Date(T0 + 3 * H) });
    expect(queue.schedule(message(3), { key: 'never', notBefore: new Date(T0 - 2 * H), notAfter: new Date(T0) })).toBeNull();
    // Nobody looked between hour 0 and hour 4.
    walkTo(4);
    await queue.drain();
    expect(delivered).toEqual([message(1)]);
    expect(
      db
        .select()
        .from(mailQueue)
        .all()
        .map((row) => row.key),
    ).toEqual(['late-but-useful']);
  });

  it('is never sent twice: an attempt cut off mid-send is not repeated; a send that failed outright is retried', async () => {
    const db = testDb();
    let now = T0;
    const hung: Mailer = { send: () => new Promise(() => {}) };
    const dying = createMailQueue({ db, mailer: hung, log: quietLog(), now: () => now, concurrency: 1 });
    dying.schedule(message(1), { key: 'booking-1:reminder', notBefore: new Date(T0 + H) });
    now = T0 + H;
    void dying.drain();
    await vi.waitFor(() => expect(db.select().from(mailSentMarks).all()).toHaveLength(1));
    dying.stop();

    // The next process finds the attempt cut off: perhaps it went out, so it does not go again.
    const { mailer, delivered } = scriptedMailer((attempt) => attempt === 1);
    const next = createMailQueue({ db, mailer, log: quietLog(), now: () => now, backoffMs: [60_000] });
    cleanups.push(() => next.stop());
    expect(next.resumeInterrupted()).toBe(1);
    await next.drain();
    expect(delivered).toEqual([]);
    expect(next.pending()).toBe(0);

    // A refused send certainly did not go out: its retry may.
    next.schedule(message(2), { key: 'booking-2:reminder', notBefore: new Date(T0 + H) });
    await next.drain();
    expect(delivered).toEqual([]);
    now += 60_000;
    await next.drain();
    expect(delivered).toEqual([message(2)]);
  });

  it('two rows for one key and time (two processes scheduling at once) send once', async () => {
    const { mailer, delivered } = scriptedMailer();
    const { queue, walkTo, db } = walkingQueue(mailer);
    queue.schedule(message(1), { key: 'booking-1:reminder', notBefore: new Date(T0 + H) });
    // A second row, as if written by another process in the same instant.
    db.insert(mailQueue)
      .values({ message: message(1), key: 'booking-1:reminder', notBefore: new Date(T0 + H), nextAttemptAt: new Date(T0 + H) })
      .run();
    walkTo(1);
    await queue.drain();
    expect(delivered).toEqual([message(1)]);
  });

  it('wakes up for it on its own, without anyone draining', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const db = testDb();
    const { mailer, delivered } = scriptedMailer();
    const queue = createMailQueue({ db, mailer, log: quietLog() });
    cleanups.push(() => queue.stop());
    queue.schedule(message(1), { key: 'soon', notBefore: new Date(Date.now() + 3 * 60_000) });
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(delivered).toEqual([]);
    await vi.advanceTimersByTimeAsync(61_000);
    expect(delivered).toEqual([message(1)]);
  });
});
