// Part 2 of the booking benchmark (scripts/bench-bookings.ts): a steady
// stream of valid requests (--workers); once it has run --kill-ms and
// --kill-after bookings were answered 201, the server's process group gets
// SIGKILL. The server is started again on the same database, and every booking
// that was answered 201 must be there, with its lead. Once the new process has
// emptied the mail queue (within 60 s), both messages of every booking
// answered 201 must be in the queue, sent, and in the outbox, and no
// half-written .partial file may be left. A message sent twice (its attempt
// was cut off after the file was in place) is counted, not failed.
import { and, count, eq, like, notExists } from 'drizzle-orm';
import { bookings, leads } from '#db/schema.ts';
import { Agent } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import {
  bookingId,
  bookingMail,
  failures,
  forgetBookingLimits,
  jsonHeaders,
  killServer,
  log,
  mailQueueEmptyBy,
  nextClient,
  partialFiles,
  portReleased,
  present,
  queueState,
  rowCounts,
  send,
  startServer,
  tally,
  validBody,
  values,
  withDb,
  type Booked,
} from './kit.ts';

export async function measureKill() {
  const workers = Number(values.workers);
  const killAfter = Number(values['kill-after']);
  const before = rowCounts();
  const queueBefore = queueState();
  const answered = new Map<number, Booked>(); // booking id -> its client, for every 201
  const statuses: string[] = []; // HTTP answers other than 201
  const errorsBeforeKill: string[] = [];
  const errorsAfterKill: string[] = [];
  let killed = false;
  let sent = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: workers });
  forgetBookingLimits();
  const worker = async (w: number) => {
    for (let i = 0; !killed; i++) {
      // Each booking its own address and name, so its two mails can be told from all others.
      const email = `bench-kill-${w}-${i}@example.com`;
      const name = `Bench Kill ${w}-${i}`;
      // Spread over the spas by the stream's count, not the worker's: each worker counting from 0 sent
      // its first bookings to the same few spas, past their limit of 30 an hour (answers 429).
      const body = { ...validBody('kill', sent++), email, name };
      const answer = await send({ agent, headers: jsonHeaders(), body: JSON.stringify(body), from: nextClient() });
      const id = answer.status === 201 ? bookingId(answer) : null;
      if (id !== null) answered.set(id, { email, name });
      else if (answer.status && !answer.error) statuses.push(`HTTP ${answer.status}`);
      else (killed ? errorsAfterKill : errorsBeforeKill).push(answer.error ?? 'no answer');
    }
  };
  const started = performance.now();
  const stream = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  const killAt = started + Number(values['kill-ms']);
  const deadline = started + 60_000;
  while (answered.size < killAfter || performance.now() < killAt) {
    if (performance.now() > deadline)
      throw new Error(
        `only ${answered.size} bookings answered in 60 s (${JSON.stringify(tally(statuses))}, errors ${JSON.stringify(tally(errorsBeforeKill))})`,
      );
    await delay(5);
  }
  const gone = killServer();
  killed = true;
  const killedAtMs = performance.now() - started;
  const answeredBeforeKill = answered.size;
  await gone;
  await stream; // the requests in flight end with connection errors
  agent.destroy();
  const answered201 = answered.size; // a response can still arrive between kill() and the process's end
  await portReleased();
  // What the kill left: messages not sent yet (some in the middle of an attempt) and half-written files.
  const queueAtKill = queueState();
  const partialFilesAtKill = partialFiles().length;

  const restarted = performance.now();
  const restartMs = await startServer();
  // The new process sends what the old one left; wait for it before judging the mail.
  const queueEmptyAt = await mailQueueEmptyBy(restarted + 60_000);
  const queueAfterRestart = queueState();
  const check = present(new Map([...answered].map(([id, booking]) => [id, booking.email])));
  const after = rowCounts();
  const stored = withDb((db) => {
    const killed = like(bookings.email, 'bench-kill-%');
    return {
      n: db.select({ n: count() }).from(bookings).where(killed).get()!.n,
      // A booking stored without its lead: the two are written in one transaction, so none may be.
      orphans: db
        .select({ n: count() })
        .from(bookings)
        .where(and(killed, notExists(db.select({ id: leads.id }).from(leads).where(eq(leads.bookingId, bookings.id)))))
        .get()!.n,
    };
  });
  const mail = bookingMail([...answered.values()]);
  const partialMails = partialFiles().length;
  const agentAfter = new Agent({ keepAlive: false });
  forgetBookingLimits();
  const afterRestart = await send({ agent: agentAfter, headers: jsonHeaders(), body: JSON.stringify(validBody('after-restart', 0)), from: nextClient() });
  agentAfter.destroy();

  const result = {
    workers,
    killWhen: { runMs: Number(values['kill-ms']), answered201: killAfter },
    killedAfterMs: Math.round(killedAtMs),
    requestsSent: sent,
    answered201BeforeKill: answeredBeforeKill,
    answered201: answered201,
    requestsPerSecondBeforeKill: Math.round(answeredBeforeKill / (killedAtMs / 1000)),
    otherStatuses: tally(statuses),
    errorsBeforeKill: tally(errorsBeforeKill),
    errorsAtKill: tally(errorsAfterKill),
    missingAfterRestart: check.missingBookings.length,
    missingIds: check.missingBookings.slice(0, 20),
    answeredWithoutLead: check.missingLeads.length,
    // Rows committed whose answer the kill cut off: allowed, the client saw an error.
    storedButNotAnswered: stored.n - answered201,
    bookingsWithoutLead: stored.orphans,
    newBookings: after.bookings - before.bookings,
    newLeads: after.leads - before.leads,
    restartMs: Math.round(restartMs),
    bookingAfterRestart: afterRestart.status,
    mail: {
      // The queue when the server was dead: messages this part queued and sent, unsent messages, those of them in the middle of an attempt, and half-written files.
      queuedBeforeKill: queueAtKill.total - queueBefore.total,
      sentBeforeKill: queueAtKill.total - queueBefore.total - (queueAtKill.unsent - queueBefore.unsent),
      unsentAtKill: queueAtKill.unsent,
      inAttemptAtKill: queueAtKill.inFlight,
      partialFilesAtKill,
      // From starting the new process until the queue had no unsent message (null: not within 60 s).
      queueEmptyAfterRestartMs: queueEmptyAt === null ? null : Math.round(queueEmptyAt - restarted),
      unsentAfterWait: queueAfterRestart.unsent,
      givenUpInQueue: queueAfterRestart.givenUp,
      // The two messages of every booking answered 201 (bars: none missing, all sent, all in the outbox).
      forAnswered: mail.expected,
      queuedForAnswered: mail.queued,
      missingFromQueue: mail.missingFromQueue,
      notSent: mail.notSent,
      givenUp: mail.givenUp,
      missingFromOutbox: mail.missingFromOutbox,
      missing: mail.missingFromQueue + mail.missingFromOutbox,
      // Allowed (at least once): a message whose attempt the kill cut off after its file was in place is sent again.
      sentTwice: mail.sentTwice,
      attemptedMoreThanOnce: mail.attemptedMoreThanOnce,
      queuedMoreThanOnce: mail.queuedMoreThanOnce,
      // Half-written files left in the outbox once the queue was empty (bar: none).
      partialFilesLeft: partialMails,
      examples: mail.examples,
    },
  };
  log.info(
    `kill: SIGKILL after ${result.killedAfterMs} ms with ${answeredBeforeKill} bookings answered 201 (${answered201} in all); ` +
      `${errorsAfterKill.length} requests cut off; ${result.missingAfterRestart} missing after restart; restart took ${result.restartMs} ms; ` +
      `mail: ${queueAtKill.unsent} unsent at the kill (${queueAtKill.inFlight} in an attempt, ${partialFilesAtKill} half-written), ` +
      `queue empty ${result.mail.queueEmptyAfterRestartMs ?? 'not within 60 s'} ms after the restart began; ` +
      `${mail.queued}/${mail.expected} messages of answered bookings queued, ${result.mail.missing} missing, ${mail.notSent} not sent, ${mail.sentTwice} sent twice, ${partialMails} .partial left`,
  );
  for (const example of mail.examples) log.warn(`kill: ${example}`);
  const problem = (text: string) => failures.push(`kill: ${text}`);
  if (result.missingAfterRestart)
    problem(`${result.missingAfterRestart} bookings answered 201 are missing after the restart (${result.missingIds.join(', ')})`);
  if (result.answeredWithoutLead) problem(`${result.answeredWithoutLead} bookings answered 201 have no lead`);
  if (result.bookingsWithoutLead) problem(`${result.bookingsWithoutLead} stored bookings have no lead`);
  if (result.newLeads !== result.newBookings) problem(`${result.newBookings} new bookings but ${result.newLeads} new leads`);
  if (statuses.length) problem(`answers other than 201: ${JSON.stringify(result.otherStatuses)}`);
  if (errorsBeforeKill.length) problem(`connection errors before the kill: ${JSON.stringify(result.errorsBeforeKill)}`);
  if (result.storedButNotAnswered < 0) problem(`fewer stored bookings (${stored.n}) than answered (${answered201})`);
  if (afterRestart.status !== 201) problem(`a booking after the restart answered ${afterRestart.status || afterRestart.error}`);
  if (queueEmptyAt === null) problem(`the mail queue still held ${queueAfterRestart.unsent} unsent messages 60 s after the restart`);
  if (mail.missingFromQueue) problem(`${mail.missingFromQueue} of the ${mail.expected} messages of bookings answered 201 are not in the mail queue`);
  if (mail.notSent) problem(`${mail.notSent} queued messages of bookings answered 201 are not sent (${mail.givenUp} given up)`);
  if (mail.missingFromOutbox) problem(`${mail.missingFromOutbox} messages of bookings answered 201 are not in the outbox`);
  if (partialMails) problem(`${partialMails} half-written .partial files left in the outbox`);
  return result;
}
