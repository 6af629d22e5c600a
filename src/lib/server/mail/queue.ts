// Mail that must arrive even if the server dies right after answering: a
// booking's "request received" and "new request", status changes, newsletter
// confirmations. enqueue() writes the message to SQLite (synchronously, so it
// is stored before the request is answered) and returns; workers send it,
// retry failures with growing pauses, and resume whatever was left when the
// process stopped. Delivery is at least once: a crash in the middle of a send
// can send that one message twice, never zero times.
// Free of astro:env, like mailer.ts: the app (mail.ts) and the front server
// (server/serve.ts, which resumes the queue at start) each make one.
import { and, asc, eq, isNull, lte, min, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { mailQueue } from '#db/schema.ts';
import { logger } from '#lib/log.ts';
import type { MailLogger, MailMessage, Mailer } from './mailer.ts';

export interface MailQueueConfig {
  db: Db;
  mailer: Mailer;
  log?: MailLogger;
  /** Pauses after the 1st, 2nd... failed attempt; after the last one the message is given up. */
  backoffMs?: readonly number[];
  /** How long an attempt may take before another worker may take the message over. */
  leaseMs?: number;
  /** Messages sent at the same time. */
  concurrency?: number;
}

export interface MailQueue {
  /** Stores the message for sending and starts the workers; returns its queue id. */
  enqueue(message: MailMessage): number;
  /** Sends whatever is due now; resolves when nothing due is left. */
  drain(): Promise<void>;
  /** Messages neither sent nor given up. */
  pending(): number;
  /**
   * For a process starting up, when no attempt can be running: messages whose
   * attempt was cut off by the last process's end are due again now, instead
   * of when their lease runs out. Returns how many.
   */
  resumeInterrupted(): number;
  /** Deletes messages sent longer ago than `ageMs` (the log keeps what happened); returns how many. */
  pruneSent(ageMs: number): number;
  stop(): void;
}

const DEFAULT_BACKOFF_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];

export function createMailQueue(config: MailQueueConfig): MailQueue {
  const { db, mailer } = config;
  const log = config.log ?? logger('mail');
  const backoff = config.backoffMs ?? DEFAULT_BACKOFF_MS;
  const leaseMs = config.leaseMs ?? 5 * 60_000;
  const concurrency = config.concurrency ?? 4;
  const waiting = and(isNull(mailQueue.sentAt), isNull(mailQueue.failedAt));

  let active = 0;
  let idleWaiters: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  /** Takes the oldest due message for one attempt, in one statement, so two workers never take the same one. */
  function claim(now: number) {
    const due = db
      .select({ id: mailQueue.id })
      .from(mailQueue)
      .where(and(waiting, lte(mailQueue.nextAttemptAt, new Date(now))))
      .orderBy(asc(mailQueue.nextAttemptAt), asc(mailQueue.id))
      .limit(1);
    return db
      .update(mailQueue)
      // lastError is cleared while an attempt runs: a leased row without one is an attempt under way (see resumeInterrupted).
      .set({ attempts: sql`${mailQueue.attempts} + 1`, nextAttemptAt: new Date(now + leaseMs), lastError: null })
      .where(and(eq(mailQueue.id, sql`(${due})`), waiting, lte(mailQueue.nextAttemptAt, new Date(now))))
      .returning()
      .get();
  }

  async function attempt(row: NonNullable<ReturnType<typeof claim>>) {
    const message = row.message as MailMessage;
    try {
      await mailer.send(message);
      db.update(mailQueue).set({ sentAt: new Date(), lastError: null }).where(eq(mailQueue.id, row.id)).run();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const pause = backoff[row.attempts - 1];
      if (pause === undefined) {
        db.update(mailQueue).set({ failedAt: new Date(), lastError: reason }).where(eq(mailQueue.id, row.id)).run();
        log.error(`gave up on queued mail ${row.id} ("${message.subject}" to ${message.to}) after ${row.attempts} attempts: ${reason}`);
      } else {
        db.update(mailQueue).set({ nextAttemptAt: new Date(Date.now() + pause), lastError: reason }).where(eq(mailQueue.id, row.id)).run();
        log.warn(`queued mail ${row.id} will be tried again in ${Math.round(pause / 1000)} s: ${reason}`);
      }
    }
  }

  // The count changes inside the worker, without waiting a tick: a worker
  // that finds nothing due is gone before its caller looks at the count.
  async function worker() {
    active++;
    try {
      for (let row = claim(Date.now()); row && !stopped; row = claim(Date.now())) await attempt(row);
    } catch (error) {
      log.error('a mail queue worker stopped unexpectedly', error);
    } finally {
      active--;
      if (active === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        waiters.forEach((resolve) => resolve());
        wakeForNextDue();
      }
    }
  }

  /** Wakes the workers when the next retry (or an abandoned attempt's lease) falls due. */
  function wakeForNextDue() {
    if (stopped) return;
    let next: Date | null | undefined;
    try {
      next = db.select({ at: min(mailQueue.nextAttemptAt) }).from(mailQueue).where(waiting).get()?.at;
    } catch (error) {
      // The database was busy: look again in a minute rather than end the process.
      log.warn(`mail queue: could not read the next due time (${error instanceof Error ? error.message : String(error)}); retrying in 60 s`);
      next = new Date(Date.now() + 60_000);
    }
    if (timer) clearTimeout(timer);
    timer = null;
    if (!next) return;
    timer = setTimeout(start, Math.max(0, next.getTime() - Date.now()) + 5);
    timer.unref();
  }

  /** Tops the workers up to `concurrency`; each one stops when nothing is due. */
  function start(): void {
    if (stopped) return;
    for (let missing = concurrency - active; missing > 0; missing--) void worker();
  }

  function enqueue(message: MailMessage): number {
    if (!message.text || !message.html) throw new Error(`mail "${message.subject}" needs both a text and an HTML part`);
    const row = db.insert(mailQueue).values({ message, nextAttemptAt: new Date() }).returning({ id: mailQueue.id }).get();
    start();
    return row.id;
  }

  function drain(): Promise<void> {
    start();
    return active === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
  }

  function pending(): number {
    return db.select({ n: sql<number>`count(*)` }).from(mailQueue).where(waiting).get()?.n ?? 0;
  }

  function resumeInterrupted(): number {
    const now = new Date();
    const result = db
      .update(mailQueue)
      .set({ nextAttemptAt: now })
      .where(and(waiting, sql`${mailQueue.attempts} > 0`, sql`${mailQueue.nextAttemptAt} > ${now.getTime()}`, isNull(mailQueue.lastError)))
      .run();
    return result.changes;
  }

  function pruneSent(ageMs: number): number {
    return db
      .delete(mailQueue)
      .where(sql`${mailQueue.sentAt} is not null and ${mailQueue.sentAt} < ${Date.now() - ageMs}`)
      .run().changes;
  }

  function stop() {
    stopped = true;
    if (timer) clearTimeout(timer);
  }

  return { enqueue, drain, pending, resumeInterrupted, pruneSent, stop };
}
