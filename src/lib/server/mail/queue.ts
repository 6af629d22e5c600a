// Mail that must arrive even if the server dies right after answering: a
// booking's "request received" and "new request", status changes, newsletter
// confirmations. enqueue() writes the message to SQLite (synchronously, so it
// is stored before the request is answered) and returns; workers send it,
// retry failures with growing pauses, and resume whatever was left when the
// process stopped. Delivery is at least once: a crash in the middle of a send
// can send that one message twice, never zero times.
//
// Scheduled mail (booking reminders) carries a key, a not-before and a
// not-after time: it waits until its time, a later change replaces or drops it
// by key, and it is dropped unsent once its not-after time has passed. Keyed
// mail is sent at most once per key and time (mail_sent_marks): the mark is
// written when the attempt begins, so a crash in the middle of a send loses
// that reminder rather than sending it twice; a send that fails outright
// clears the mark and is retried like any other.
// Free of astro:env, like mailer.ts: the app (mail.ts) and the front server
// (server/serve.ts, which resumes the queue at start) each make one.
import { and, asc, eq, gt, inArray, isNull, lte, min, or, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { mailQueue, mailSentMarks } from '#db/schema.ts';
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
  /** The clock (epoch ms); a test walks it. */
  now?: () => number;
  /** The longest the workers sleep before looking for due mail again (other processes schedule mail too). */
  pollMs?: number;
}

/** When keyed mail goes out: not before `notBefore`, and never once `notAfter` has passed. */
export interface MailSchedule {
  key: string;
  notBefore: Date;
  notAfter?: Date | null;
}

export interface MailQueue {
  /** Stores the message for sending and starts the workers; returns its queue id. */
  enqueue(message: MailMessage): number;
  /**
   * Stores keyed mail for its time, replacing whatever is still waiting under
   * the same key; returns its queue id, or null when its not-after time has
   * already passed (nothing is stored).
   */
  schedule(message: MailMessage, when: MailSchedule): number | null;
  /** Drops the waiting mail of these keys; returns how many. */
  unschedule(keys: readonly string[]): number;
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

/**
 * Stores a message for the queue without a queue at hand (a periodic job, in
 * the transaction that decides to send it). Every queue finds it within its
 * poll interval; a queue in this process at once when it next looks.
 */
export function storeMail(db: Pick<Db, 'insert'>, message: MailMessage, at: Date = new Date()): number {
  if (!message.text || !message.html) throw new Error(`mail "${message.subject}" needs both a text and an HTML part`);
  return db.insert(mailQueue).values({ message, nextAttemptAt: at }).returning({ id: mailQueue.id }).get().id;
}

const DEFAULT_BACKOFF_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];

export function createMailQueue(config: MailQueueConfig): MailQueue {
  const { db, mailer } = config;
  const log = config.log ?? logger('mail');
  const backoff = config.backoffMs ?? DEFAULT_BACKOFF_MS;
  const leaseMs = config.leaseMs ?? 5 * 60_000;
  const concurrency = config.concurrency ?? 4;
  const clock = config.now ?? Date.now;
  const pollMs = config.pollMs ?? 60_000;
  const waiting = and(isNull(mailQueue.sentAt), isNull(mailQueue.failedAt));

  let active = 0;
  let idleWaiters: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  /** Waiting mail whose not-after time has passed is dropped, not sent. */
  function dropExpired(now: number) {
    const dropped = db
      .delete(mailQueue)
      .where(and(waiting, lte(mailQueue.notAfter, new Date(now))))
      .returning({ id: mailQueue.id, key: mailQueue.key })
      .all();
    for (const row of dropped) log.info(`dropped queued mail ${row.id} (${row.key ?? 'no key'}): its time has passed`);
  }

  /** Takes the oldest due message for one attempt, in one statement, so two workers never take the same one. */
  function claim(now: number) {
    dropExpired(now);
    const due = db
      .select({ id: mailQueue.id })
      .from(mailQueue)
      .where(and(waiting, lte(mailQueue.nextAttemptAt, new Date(now)), or(isNull(mailQueue.notAfter), gt(mailQueue.notAfter, new Date(now)))))
      .orderBy(asc(mailQueue.nextAttemptAt), asc(mailQueue.id))
      .limit(1);
    return (
      db
        .update(mailQueue)
        // lastError is cleared while an attempt runs: a leased row without one is an attempt under way (see resumeInterrupted).
        .set({ attempts: sql`${mailQueue.attempts} + 1`, nextAttemptAt: new Date(now + leaseMs), lastError: null })
        .where(and(eq(mailQueue.id, sql`(${due})`), waiting, lte(mailQueue.nextAttemptAt, new Date(now))))
        .returning()
        .get()
    );
  }

  /** The keyed message's mark for this attempt: false when an earlier attempt (or another row) already began sending it. */
  function markOnce(row: NonNullable<ReturnType<typeof claim>>): boolean {
    if (!row.key) return true;
    const marked = db
      .insert(mailSentMarks)
      .values({ key: row.key, notBefore: row.notBefore ?? row.createdAt, markedAt: new Date(clock()) })
      .onConflictDoNothing()
      .run();
    if (marked.changes > 0) return true;
    db.delete(mailQueue).where(eq(mailQueue.id, row.id)).run();
    log.warn(`dropped queued mail ${row.id} (${row.key}): an attempt to send it had already begun`);
    return false;
  }

  async function attempt(row: NonNullable<ReturnType<typeof claim>>) {
    const message = row.message as MailMessage;
    if (!markOnce(row)) return;
    try {
      await mailer.send(message);
      db.update(mailQueue)
        .set({ sentAt: new Date(clock()), lastError: null })
        .where(eq(mailQueue.id, row.id))
        .run();
    } catch (error) {
      // It certainly did not go out: the retry may send it.
      if (row.key) {
        db.delete(mailSentMarks)
          .where(and(eq(mailSentMarks.key, row.key), eq(mailSentMarks.notBefore, row.notBefore ?? row.createdAt)))
          .run();
      }
      const reason = error instanceof Error ? error.message : String(error);
      const pause = backoff[row.attempts - 1];
      if (pause === undefined) {
        db.update(mailQueue)
          .set({ failedAt: new Date(clock()), lastError: reason })
          .where(eq(mailQueue.id, row.id))
          .run();
        log.error(`gave up on queued mail ${row.id} ("${message.subject}" to ${message.to}) after ${row.attempts} attempts: ${reason}`);
      } else {
        db.update(mailQueue)
          .set({ nextAttemptAt: new Date(clock() + pause), lastError: reason })
          .where(eq(mailQueue.id, row.id))
          .run();
        log.warn(`queued mail ${row.id} will be tried again in ${Math.round(pause / 1000)} s: ${reason}`);
      }
    }
  }

  // The count changes inside the worker, without waiting a tick: a worker
  // that finds nothing due is gone before its caller looks at the count.
  async function worker() {
    active++;
    try {
      for (let row = claim(clock()); row && !stopped; row = claim(clock())) await attempt(row);
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

  /**
   * Wakes the workers when the next retry, scheduled message or abandoned
   * attempt's lease falls due, and at least every `pollMs`: mail another
   * process scheduled (and then stopped) is found too, and a timer never
   * overflows for a reminder weeks ahead.
   */
  function wakeForNextDue() {
    if (stopped) return;
    let next: Date | null | undefined;
    try {
      next = db
        .select({ at: min(mailQueue.nextAttemptAt) })
        .from(mailQueue)
        .where(waiting)
        .get()?.at;
    } catch (error) {
      // The database was busy: look again in a minute rather than end the process.
      log.warn(`mail queue: could not read the next due time (${error instanceof Error ? error.message : String(error)}); retrying in 60 s`);
      next = new Date(clock() + 60_000);
    }
    if (timer) clearTimeout(timer);
    timer = null;
    const wait = next ? Math.max(0, next.getTime() - clock()) + 5 : pollMs;
    timer = setTimeout(start, Math.min(wait, pollMs));
    timer.unref();
  }

  /** Tops the workers up to `concurrency`; each one stops when nothing is due. */
  function start(): void {
    if (stopped) return;
    for (let missing = concurrency - active; missing > 0; missing--) void worker();
  }

  function enqueue(message: MailMessage): number {
    const id = storeMail(db, message, new Date(clock()));
    start();
    return id;
  }

  function schedule(message: MailMessage, when: MailSchedule): number | null {
    if (!message.text || !message.html) throw new Error(`mail "${message.subject}" needs both a text and an HTML part`);
    const id = db.transaction((tx) => {
      tx.delete(mailQueue)
        .where(and(waiting, eq(mailQueue.key, when.key)))
        .run();
      if (when.notAfter && when.notAfter.getTime() <= clock()) return null;
      return tx
        .insert(mailQueue)
        .values({ message, key: when.key, notBefore: when.notBefore, notAfter: when.notAfter ?? null, nextAttemptAt: when.notBefore })
        .returning({ id: mailQueue.id })
        .get().id;
    });
    if (id !== null) wakeForNextDue();
    return id;
  }

  function unschedule(keys: readonly string[]): number {
    if (keys.length === 0) return 0;
    return db
      .delete(mailQueue)
      .where(and(waiting, inArray(mailQueue.key, [...keys])))
      .run().changes;
  }

  function drain(): Promise<void> {
    start();
    return active === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
  }

  function pending(): number {
    return (
      db
        .select({ n: sql<number>`count(*)` })
        .from(mailQueue)
        .where(waiting)
        .get()?.n ?? 0
    );
  }

  function resumeInterrupted(): number {
    const now = new Date(clock());
    const result = db
      .update(mailQueue)
      .set({ nextAttemptAt: now })
      .where(and(waiting, sql`${mailQueue.attempts} > 0`, sql`${mailQueue.nextAttemptAt} > ${now.getTime()}`, isNull(mailQueue.lastError)))
      .run();
    return result.changes;
  }

  function pruneSent(ageMs: number): number {
    // A mark outlives its reminder's appointment by far at this age.
    db.delete(mailSentMarks)
      .where(lte(mailSentMarks.markedAt, new Date(clock() - ageMs)))
      .run();
    return db
      .delete(mailQueue)
      .where(sql`${mailQueue.sentAt} is not null and ${mailQueue.sentAt} < ${clock() - ageMs}`)
      .run().changes;
  }

  function stop() {
    stopped = true;
    if (timer) clearTimeout(timer);
  }

  return { enqueue, schedule, unschedule, drain, pending, resumeInterrupted, pruneSent, stop };
}
