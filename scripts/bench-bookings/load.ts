// Part 1 of the booking benchmark (scripts/bench-bookings.ts): bursts of
// --burst valid requests started at once, --rounds times. Every one must
// answer 201 and leave exactly one booking and one lead. Reported: latency,
// server CPU per booking, and how long after the last 201 the mail queue was empty.
import { Agent } from 'node:http';
import { round } from '../lib/bench-kit.ts';
import {
  bookingId,
  failures,
  forgetBookingLimits,
  jsonHeaders,
  latencySummary,
  log,
  mailFiles,
  mailQueueEmptyBy,
  mailsWritten,
  nextClient,
  present,
  rowCounts,
  send,
  serverCpuMs,
  tally,
  validBody,
  values,
} from './kit.ts';

async function loadRound(n: number, burst: number) {
  const tag = `load${n}`;
  const before = rowCounts();
  const mailsBefore = mailFiles().length;
  const cpuBefore = serverCpuMs();
  const clientCpuBefore = process.cpuUsage();
  const agent = new Agent({ keepAlive: true, maxSockets: burst });
  const bodies = Array.from({ length: burst }, (_, i) => JSON.stringify(validBody(tag, i)));
  forgetBookingLimits();
  const started = performance.now();
  const answers = await Promise.all(bodies.map((body) => send({ agent, headers: jsonHeaders(), body, from: nextClient() })));
  const seconds = (performance.now() - started) / 1000;
  const cpuAnswered = serverCpuMs();
  agent.destroy();
  const after = rowCounts();
  // Mail throughput: from the last 201 until the queue has nothing left to send.
  const last201 = Math.max(...answers.filter((a) => a.status === 201).map((a) => a.at));
  const queueEmptyAt = await mailQueueEmptyBy(performance.now() + 60_000);
  const mailMs = await mailsWritten(mailsBefore + 2 * (after.bookings - before.bookings));
  const cpuAfter = serverCpuMs();
  const clientCpu = process.cpuUsage(clientCpuBefore);

  const created = new Map<number, string>();
  answers.forEach((answer, i) => {
    const id = answer.status === 201 ? bookingId(answer) : null;
    if (id !== null) created.set(id, `bench-${tag}-${i}@example.com`);
  });
  const notCreated = answers.filter((a) => a.status !== 201).map((a) => (a.status ? `HTTP ${a.status}` : (a.error ?? 'no answer')));
  const check = present(created);
  const result = {
    round: n,
    requests: burst,
    answered201: answers.length - notCreated.length,
    distinctIds: created.size,
    errors: notCreated.length,
    errorsByKind: tally(notCreated),
    newBookings: after.bookings - before.bookings,
    newLeads: after.leads - before.leads,
    answeredButMissing: check.missingBookings.length,
    answeredWithoutLead: check.missingLeads.length,
    seconds: round(seconds, 3),
    requestsPerSecond: Math.round(burst / seconds),
    latencyMs: latencySummary(answers.map((a) => a.ms)),
    // From the last 201 until the mail queue had no unsent message (null: not within 60 s).
    mailQueueEmptyAfterLast201Ms: queueEmptyAt === null || !Number.isFinite(last201) ? null : Math.round(queueEmptyAt - last201),
    mailsSentPerSecond: queueEmptyAt === null || !Number.isFinite(last201) ? null : Math.round((2 * created.size) / ((queueEmptyAt - started) / 1000)),
    // From then until both mails of every booking were in the outbox (they are, once the queue is empty).
    mailsWrittenAfterMs: mailMs === null ? null : Math.round(mailMs),
    // Server CPU per booking: until the last answer (mail has started by then),
    // and in all, its two mails included; and what the client here spent.
    serverCpuMsPerBookingUntilAnswered: cpuAnswered === null || cpuBefore === null ? null : round((cpuAnswered - cpuBefore) / burst),
    serverCpuMsPerBooking: cpuAfter === null || cpuBefore === null ? null : round((cpuAfter - cpuBefore) / burst),
    clientCpuMsPerRequest: round((clientCpu.user + clientCpu.system) / 1000 / burst),
  };
  log.info(
    `load round ${n}: ${result.answered201}/${burst} answered 201, +${result.newBookings} bookings, +${result.newLeads} leads, ${result.requestsPerSecond} req/s; ` +
      `p50 ${result.latencyMs.p50} ms, p95 ${result.latencyMs.p95} ms, p99 ${result.latencyMs.p99} ms, max ${result.latencyMs.max} ms; ` +
      `server CPU ${result.serverCpuMsPerBooking ?? '?'} ms per booking (${result.serverCpuMsPerBookingUntilAnswered ?? '?'} until answered); ` +
      `mail queue empty ${result.mailQueueEmptyAfterLast201Ms ?? 'not within 60 s'} ms after the last 201`,
  );
  const problem = (text: string) => failures.push(`load round ${n}: ${text}`);
  if (result.errors) problem(`${result.errors} requests did not answer 201 (${JSON.stringify(result.errorsByKind)})`);
  if (result.distinctIds !== burst) problem(`${result.distinctIds} distinct booking ids for ${burst} requests`);
  if (result.newBookings !== burst) problem(`${result.newBookings} new bookings, expected ${burst}`);
  if (result.newLeads !== burst) problem(`${result.newLeads} new leads, expected ${burst}`);
  if (result.answeredButMissing || result.answeredWithoutLead)
    problem(`${result.answeredButMissing} answered bookings missing, ${result.answeredWithoutLead} without a lead`);
  return result;
}

export async function measureLoad() {
  const burst = Number(values.burst);
  // Warm-up, not reported: the first requests pay for module loading, the JIT and
  // SQLite's page cache.
  const warm = new Agent({ keepAlive: true, maxSockets: 32 });
  const mailsBefore = mailFiles().length;
  forgetBookingLimits();
  const warmed = await Promise.all(
    Array.from({ length: burst }, (_, i) => send({ agent: warm, headers: jsonHeaders(), body: JSON.stringify(validBody('warmup', i)), from: nextClient() })),
  );
  warm.destroy();
  await mailQueueEmptyBy(performance.now() + 60_000);
  await mailsWritten(mailsBefore + 2 * warmed.filter((a) => a.status === 201).length);
  const rounds = [];
  for (let n = 1; n <= Number(values.rounds); n++) rounds.push(await loadRound(n, burst));
  return { burst, rounds };
}
